import type { SandboxCopy } from './index.ts';

/** English: the page's first language, a tool for testers. */
export const en: SandboxCopy = {
  personaLegend: 'Test persona',
  methodLegend: 'Verification method',
  methodOnlyWallet: 'This request is in EUDI wallet mode: only the wallet can answer it.',
  methodOnlyFace: 'This request is not in EUDI wallet mode: the wallet is not offered.',
  credentialLegend: 'Credential in the sandbox wallet',
  credentials: {
    av: 'Proof of age',
    pid: 'EU PID (identity)',
    'pid-no-age': 'EU PID without age_over_18 (birth date)',
    mdl: 'Mobile driving licence',
    'pid-sd-jwt': 'EU PID as an SD-JWT VC',
    'pid-sd-jwt-revoked': 'EU PID as an SD-JWT VC, revoked',
  },
  approve: 'Approve',
  fail: 'Fail the check',
  cancel: 'Cancel',
  sending: 'Sending…',
  methods: { face_check: 'Face check', eudi_wallet: 'EUDI wallet' },
  sandboxSection: 'Or answer here as a test persona',
  personas: {
    'fr-adult-m': 'Lucas Martin — French, 34, male',
    'fr-adult-f': 'Camille Dubois — French, 28, female',
    'de-adult': 'Jonas Becker — German, 45, male',
    'us-adult': 'Emily Carter — American, 31, female',
    'fr-minor': 'Léa Petit — French, 16, female',
    'turns-18-today': 'Hugo Bernard — French, 18 today, male',
    'turns-18-tomorrow': 'Chloé Moreau — French, 18 tomorrow, female',
  },
};
