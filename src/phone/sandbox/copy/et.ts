import type { SandboxCopy } from './index.ts';

/** Estonian: formal "teie", the phone page's words (src/phone/copy/et.ts). */
export const et: SandboxCopy = {
  personaLegend: 'Testisik',
  methodLegend: 'Kontrollimisviis',
  methodOnlyWallet: 'See päring on EUDI rahakoti režiimis: vastata saab ainult rahakott.',
  methodOnlyFace: 'See päring ei ole EUDI rahakoti režiimis: rahakotti ei pakuta.',
  credentialLegend: 'Tõend testrahakotis',
  credentials: {
    av: 'Vanusetõend',
    pid: 'ELi PID (isikuandmed)',
    'pid-no-age': 'ELi PID ilma väljata age_over_18 (sünnikuupäev)',
    mdl: 'Mobiilne juhiluba',
    'pid-sd-jwt': 'ELi PID SD-JWT VC-na',
    'pid-sd-jwt-revoked': 'ELi PID SD-JWT VC-na, tühistatud',
  },
  approve: 'Kinnita',
  fail: 'Lase kontrollimisel ebaõnnestuda',
  cancel: 'Katkesta',
  sending: 'Saadame…',
  methods: { face_check: 'Näokontroll', eudi_wallet: 'EUDI rahakott' },
  sandboxSection: 'Või vastake siin testisikuna',
  personas: {
    'fr-adult-m': 'Lucas Martin — prantslane, 34, mees',
    'fr-adult-f': 'Camille Dubois — prantslanna, 28, naine',
    'de-adult': 'Jonas Becker — sakslane, 45, mees',
    'us-adult': 'Emily Carter — ameeriklanna, 31, naine',
    'fr-minor': 'Léa Petit — prantslanna, 16, naine',
    'turns-18-today': 'Hugo Bernard — prantslane, saab täna 18, mees',
    'turns-18-tomorrow': 'Chloé Moreau — prantslanna, saab homme 18, naine',
  },
};
