import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LOADER_ATTRIBUTES, LOCALES } from '../../src/protocol/wire.ts';
import { loaderWarnings } from './loader-warnings.ts';
import { editDistance, nearestName } from './nearest-name.ts';

const loader = (fields: Record<string, unknown>) => ({ partner_id: 'pk_test_demo', attributes: [], ...fields });

describe('loaderWarnings', () => {
  it('names the nearest known attribute for one it does not know', () => {
    expect(loaderWarnings(loader({ attributes: ['partnerId', 'sucessPath', 'scope'] }))).toEqual([
      'unknown attribute data-sucess-path: did you mean data-success-path?',
      'unknown attribute data-scope: did you mean data-scopes?',
    ]);
  });

  it('says nothing about the documented attributes', () => {
    const all = ['partnerId', 'successPath', 'scopes', 'locale', 'theme', 'accent', 'container', 'debug'];
    const more = ['clientProofMode', 'serverVerify', 'serverVerifyEndpoint', 'serverVerifyTimeout', 'state'];
    const rest = ['onError', 'onSuccess', 'onState', 'layout', 'size', 'render', 'sessionToken', 'redemptionContext'];
    expect(loaderWarnings(loader({ attributes: [...all, ...more, ...rest] }))).toEqual([]);
  });

  it('names data-redemption-context for a near miss', () => {
    expect(loaderWarnings(loader({ attributes: ['redemptionContex'] }))).toEqual([
      'unknown attribute data-redemption-contex: did you mean data-redemption-context?',
    ]);
  });

  it('warns once about a data-locale the widget does not speak, naming the 24 it does', () => {
    expect(loaderWarnings(loader({ locale_tag: 'xx' }))).toEqual([
      'data-locale xx is not a language the widget speaks ' +
        '(fr, bg, cs, da, de, el, en, es, et, fi, ga, hr, hu, it, lt, lv, mt, nl, pl, pt, ro, sk, sl, sv): it shows fr',
    ]);
  });

  it('reads data-locale as a BCP 47 tag, as the loader does: en-GB, DE-at and auto are fine', () => {
    for (const tag of ['en-GB', 'DE-at', 'auto', 'pt', 'pt-BR', 'EL', 'sv-FI', 'ga', ''])
      expect(loaderWarnings(loader({ locale_tag: tag })), tag).toEqual([]);
  });

  it('names the nearest known scope for an unknown one', () => {
    expect(loaderWarnings(loader({ scopes: ['isAdult', 'isFrnch'] }))).toEqual([
      'data-scopes isFrnch: did you mean isFrench?',
    ]);
  });

  it('says why else data-scopes is refused, as the loader used to', () => {
    expect(loaderWarnings(loader({ scopes: ['isMale', 'isFemale'] }))).toEqual(['data-scopes isMale with isFemale']);
    expect(loaderWarnings(loader({ scopes: ['isAdult', 'isAdult'] }))).toEqual(['data-scopes names isAdult twice']);
    expect(loaderWarnings(loader({ scopes: [] }))).toEqual(['data-scopes is empty']);
    expect(loaderWarnings(loader({ scopes: ['isAdult', 'isMale'], client_proof_mode: true }))).toEqual([
      'data-scopes isMale not with data-client-proof-mode',
    ]);
  });

  it('leaves the scopes alone on the ADULT_BLIND rail, where the session token carries them', () => {
    expect(loaderWarnings({ session_token: 'st', attributes: [], scopes: ['isVampire'] })).toEqual([]);
  });

  it('answers nothing to a body without attributes: other clients get the answers they always got', () => {
    expect(loaderWarnings({ partner_id: 'pk_test_demo', scopes: ['isFrnch'], locale_tag: 'xx' })).toEqual([]);
    expect(loaderWarnings(loader({ attributes: 'sucessPath' }))).toEqual([]);
    expect(loaderWarnings(loader({ attributes: Array(65).fill('x') }))).toEqual([]);
  });

  it('quotes and cuts a name or tag that is not plain, and skips what is not a string', () => {
    expect(loaderWarnings(loader({ attributes: [42, 'a b'], locale_tag: 'x'.repeat(50) + '\n' }))).toEqual([
      'unknown attribute data-"a b": did you mean data-debug?',
      `data-locale "${'x'.repeat(40)}" is not a language the widget speaks (${LOCALES.join(', ')}): it shows fr`,
    ]);
  });
});

describe('LOADER_ATTRIBUTES', () => {
  it("is docs/embedding.md's attribute table, name for name", () => {
    const doc = readFileSync(new URL('../../docs/embedding.md', import.meta.url), 'utf8');
    const table = doc.slice(doc.indexOf('| Attribute |'), doc.indexOf('\n\n', doc.indexOf('| Attribute |')));
    const documented = table
      .split('\n')
      .flatMap((row) => row.split('|')[1]?.match(/`data-[a-z-]+`/g) ?? [])
      .map((name) => name.slice(6, -1).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()));
    expect(documented.sort()).toEqual([...LOADER_ATTRIBUTES].sort());
  });
});

describe('nearestName', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('sucessPath', 'successPath')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('picks the closest name, the first of equals', () => {
    expect(nearestName('scope', ['state', 'scopes'])).toBe('scopes');
    expect(nearestName('ab', ['ax', 'ay'])).toBe('ax');
  });
});
