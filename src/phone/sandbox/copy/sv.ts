import type { SandboxCopy } from './index.ts';

/** Swedish: "du", the phone page's words (src/phone/copy/sv.ts). */
export const sv: SandboxCopy = {
  personaLegend: 'Testperson',
  methodLegend: 'Verifieringsmetod',
  methodOnlyWallet: 'Den här begäran är i EUDI-plånboksläge: bara plånboken kan besvara den.',
  methodOnlyFace: 'Den här begäran är inte i EUDI-plånboksläge: plånboken erbjuds inte.',
  credentialLegend: 'Intyg i testplånboken',
  credentials: {
    av: 'Åldersbevis',
    pid: 'EU-PID (identitet)',
    'pid-no-age': 'EU-PID utan age_over_18 (födelsedatum)',
    mdl: 'Mobilt körkort',
    'pid-sd-jwt': 'EU-PID som SD-JWT VC',
    'pid-sd-jwt-revoked': 'EU-PID som SD-JWT VC, återkallad',
  },
  approve: 'Godkänn',
  fail: 'Underkänn kontrollen',
  cancel: 'Avbryt',
  sending: 'Skickar…',
  methods: { face_check: 'Ansiktskontroll', eudi_wallet: 'EUDI-plånbok' },
  sandboxSection: 'Eller svara här som testperson',
  personas: {
    'fr-adult-m': 'Lucas Martin — fransman, 34, man',
    'fr-adult-f': 'Camille Dubois — fransyska, 28, kvinna',
    'de-adult': 'Jonas Becker — tysk, 45, man',
    'us-adult': 'Emily Carter — amerikanska, 31, kvinna',
    'fr-minor': 'Léa Petit — fransyska, 16, kvinna',
    'turns-18-today': 'Hugo Bernard — fransman, fyller 18 i dag, man',
    'turns-18-tomorrow': 'Chloé Moreau — fransyska, fyller 18 i morgon, kvinna',
  },
};
