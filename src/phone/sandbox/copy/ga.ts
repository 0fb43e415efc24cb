import type { SandboxCopy } from './index.ts';

/** Irish: the singular imperative. */
export const ga: SandboxCopy = {
  personaLegend: 'Pearsa tástála',
  methodLegend: 'Modh fíoraithe',
  methodOnlyWallet: 'Tá an t-iarratas seo i mód tiachóige EUDI: ní féidir ach leis an tiachóg é a fhreagairt.',
  methodOnlyFace: 'Níl an t-iarratas seo i mód tiachóige EUDI: ní thairgtear an tiachóg.',
  credentialLegend: 'Dintiúr sa tiachóg tástála',
  credentials: {
    av: 'Cruthúnas aoise',
    pid: 'PID an Aontais (aitheantas)',
    'pid-no-age': 'PID an Aontais gan age_over_18 (dáta breithe)',
    mdl: 'Ceadúnas tiomána móibíleach',
    'pid-sd-jwt': 'PID an Aontais mar SD-JWT VC',
    'pid-sd-jwt-revoked': 'PID an Aontais mar SD-JWT VC, cúlghairthe',
  },
  approve: 'Ceadaigh',
  fail: 'Teip an seiceáil',
  cancel: 'Cealaigh',
  sending: 'Á sheoladh…',
  methods: { face_check: 'Seiceáil aghaidhe', eudi_wallet: 'Tiachóg EUDI' },
  sandboxSection: 'Nó freagair anseo mar phearsa tástála',
  personas: {
    'fr-adult-m': 'Lucas Martin — Francach, 34, fireann',
    'fr-adult-f': 'Camille Dubois — Francach, 28, baineann',
    'de-adult': 'Jonas Becker — Gearmánach, 45, fireann',
    'us-adult': 'Emily Carter — Meiriceánach, 31, baineann',
    'fr-minor': 'Léa Petit — Francach, 16, baineann',
    'turns-18-today': 'Hugo Bernard — Francach, 18 inniu, fireann',
    'turns-18-tomorrow': 'Chloé Moreau — Francach, 18 amárach, baineann',
  },
};
