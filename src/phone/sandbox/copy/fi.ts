import type { SandboxCopy } from './index.ts';

/** Finnish: the plain imperative. */
export const fi: SandboxCopy = {
  personaLegend: 'Testihenkilö',
  methodLegend: 'Todentamistapa',
  methodOnlyWallet: 'Tämä pyyntö on EUDI-lompakkotilassa: vain lompakko voi vastata siihen.',
  methodOnlyFace: 'Tämä pyyntö ei ole EUDI-lompakkotilassa: lompakkoa ei tarjota.',
  credentialLegend: 'Testilompakon todiste',
  credentials: {
    av: 'Ikätodiste',
    pid: 'EU:n PID (henkilöllisyys)',
    'pid-no-age': 'EU:n PID ilman age_over_18-tietoa (syntymäaika)',
    mdl: 'Mobiiliajokortti',
    'pid-sd-jwt': 'EU:n PID SD-JWT VC -muodossa',
    'pid-sd-jwt-revoked': 'EU:n PID SD-JWT VC -muodossa, mitätöity',
  },
  approve: 'Hyväksy',
  fail: 'Hylkää tarkistus',
  cancel: 'Peruuta',
  sending: 'Lähetetään…',
  methods: { face_check: 'Kasvojen tarkistus', eudi_wallet: 'EUDI-lompakko' },
  sandboxSection: 'Tai vastaa tässä testihenkilönä',
  personas: {
    'fr-adult-m': 'Lucas Martin — ranskalainen, 34, mies',
    'fr-adult-f': 'Camille Dubois — ranskalainen, 28, nainen',
    'de-adult': 'Jonas Becker — saksalainen, 45, mies',
    'us-adult': 'Emily Carter — yhdysvaltalainen, 31, nainen',
    'fr-minor': 'Léa Petit — ranskalainen, 16, nainen',
    'turns-18-today': 'Hugo Bernard — ranskalainen, täyttää tänään 18, mies',
    'turns-18-tomorrow': 'Chloé Moreau — ranskalainen, täyttää huomenna 18, nainen',
  },
};
