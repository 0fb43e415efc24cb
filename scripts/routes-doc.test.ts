import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderRoutesDoc, ROUTES_DOC } from './routes-doc.ts';

describe('docs/routes.md', () => {
  it('is what the route policies say: regenerate it with `npm run docs:routes` when this fails', async () => {
    expect(readFileSync(ROUTES_DOC, 'utf8')).toBe(await renderRoutesDoc());
  });

  it('lists the partner-signed routes, the open ones and the sandbox-only ones as such', async () => {
    const text = await renderRoutesDoc();
    const row = (path: string) => text.split('\n').find((line) => line.includes(`\`${path}\``)) ?? '';
    expect(row('/v1/exchange')).toContain('HMAC signature');
    expect(row('/v4/loader.min.js')).toContain('any origin');
    expect(row('/api/billing/attestation-keys')).toContain('any origin');
    expect(row('/m/sandbox/:file')).toMatch(/\|\s*sandbox\s*\|/);
    expect(row('/oid4vp/response/:requestId')).toContain('OpenID4VP');
  });
});
