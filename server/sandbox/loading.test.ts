/**
 * sandbox/ is what production never runs (design.md §1, §4): app.ts loads the persona picker and the
 * personas (sandbox/deps.ts, the wing's own deps) with import(), in sandbox mode only. Each module is watched through vi.mock, whose
 * factory runs when the module is first imported; the production app is built first, in a module
 * registry of this file's own.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeProductionTestDeps, makeTestApp, type TestApp } from '../test/helpers.ts';

const loaded = vi.hoisted(() => new Set<string>());

vi.mock('./phone-routes.ts', async (importOriginal) => {
  loaded.add('phone-routes');
  return importOriginal();
});
vi.mock('./personas.ts', async (importOriginal) => {
  loaded.add('personas');
  return importOriginal();
});

describe('the sandbox wing', () => {
  let t: TestApp;
  afterEach(async () => t?.close());

  it('is never loaded by a production app, which answers the persona picker 404 NOT_FOUND', async () => {
    t = await makeTestApp({ deps: (await makeProductionTestDeps()).deps });
    const res = await t.app.inject({ method: 'GET', url: '/api/m/personas' });
    expect(res.statusCode).toBe(404);
    expect(loaded).toEqual(new Set());
  });

  it('is loaded by a sandbox app: the personas and the persona picker', async () => {
    t = await makeTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/api/m/personas' });
    expect(res.statusCode).toBe(200);
    expect(res.json().length).toBeGreaterThan(0);
    expect(loaded).toEqual(new Set(['phone-routes', 'personas']));
  });
});
