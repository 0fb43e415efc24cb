import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BUDGETS, checkBundle, checkLocaleScript, findProse, gzipSize } from './check-bundle.ts';

/** Incompressible filler of about `bytes` gzip bytes. */
const noise = (bytes: number): string => `var x="${randomBytes(bytes).toString('base64')}";`;

describe('checkBundle', () => {
  it('passes a small clean bundle', () => {
    expect(checkBundle('loader', '(function(){console.log(`[svc]`,`ready`)})();')).toEqual([]);
  });

  it('fails a loader over 3072 bytes gzip and a UI over 14336', () => {
    expect(BUDGETS).toEqual({ loader: 3072, ui: 14336 });
    const big = noise(3500);
    expect(gzipSize(big)).toBeGreaterThan(3072);
    expect(checkBundle('loader', big)).toEqual([
      expect.stringMatching(/^loader: \d+ bytes gzip, over its 3072 budget$/),
    ]);
    expect(checkBundle('ui', big)).toEqual([]);
    expect(checkBundle('ui', noise(15_000))[0]).toMatch(/over its 14336 budget/);
  });

  it('counts a locale script with the bundle it completes against the UI budget', () => {
    const ui = noise(13_000);
    expect(checkLocaleScript('de', noise(500), ui)).toEqual([]);
    expect(checkLocaleScript('de', noise(1_500), ui)).toEqual([
      expect.stringMatching(/^ui with de: \d+ bytes gzip, over its 14336 budget$/),
    ]);
    expect(checkLocaleScript('nl', 'x=`SVC_MODE`', '').join()).toMatch(/ui-nl: contains forbidden string "SVC_"/);
  });

  const needles = [
    'node:crypto',
    'createHmac',
    'partnerSecret',
    'SVC_MODE',
    'pk_live_abc',
    '-----BEGIN PRIVATE KEY-----',
  ];
  needles.push('code length overflow. (42>40)'); // qrcode-generator's
  it.each(needles)('fails a bundle that contains %s', (needle) => {
    expect(checkBundle('ui', `let a=\`${needle}\`;`).join()).toMatch(/forbidden string/);
  });

  it('fails long developer prose and lets short copy through', () => {
    const prose = 'Please check that the data-partner-id attribute is set on the script tag before loading';
    expect(findProse(`console.error("${prose}")`)).toEqual([prose]);
    expect(checkBundle('loader', `console.error(\`${prose}\`)`).join()).toMatch(/developer prose/);
    expect(
      findProse(
        'x={a:`Vous pouvez la reprendre quand vous le souhaitez.`,b:`Scannez ce QR code avec votre téléphone`}',
      ),
    ).toEqual([]);
  });

  it('does not mistake minified code between two backtick strings for prose', () => {
    expect(findProse('a=`x`,b=c?d(e,f):g(h,i,j,k,l,m,n,o,p,q,r,s),t=`y`')).toEqual([]);
  });
});
