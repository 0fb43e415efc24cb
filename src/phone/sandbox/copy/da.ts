import type { SandboxCopy } from './index.ts';

/** Danish: "du", the phone page's words (src/phone/copy/da.ts). */
export const da: SandboxCopy = {
  personaLegend: 'Testperson',
  methodLegend: 'Verifikationsmetode',
  methodOnlyWallet: 'Denne anmodning er i EUDI-tegnebogstilstand: Kun tegnebogen kan besvare den.',
  methodOnlyFace: 'Denne anmodning er ikke i EUDI-tegnebogstilstand: Tegnebogen tilbydes ikke.',
  credentialLegend: 'Bevis i testtegnebogen',
  credentials: {
    av: 'Aldersbevis',
    pid: 'EU-PID (identitet)',
    'pid-no-age': 'EU-PID uden age_over_18 (fødselsdato)',
    mdl: 'Digitalt kørekort',
    'pid-sd-jwt': 'EU-PID som SD-JWT VC',
    'pid-sd-jwt-revoked': 'EU-PID som SD-JWT VC, tilbagekaldt',
  },
  approve: 'Godkend',
  fail: 'Lad kontrollen mislykkes',
  cancel: 'Annuller',
  sending: 'Sender…',
  methods: { face_check: 'Ansigtskontrol', eudi_wallet: 'EUDI-tegnebog' },
  sandboxSection: 'Eller svar her som testperson',
  personas: {
    'fr-adult-m': 'Lucas Martin — fransk, 34, mand',
    'fr-adult-f': 'Camille Dubois — fransk, 28, kvinde',
    'de-adult': 'Jonas Becker — tysk, 45, mand',
    'us-adult': 'Emily Carter — amerikansk, 31, kvinde',
    'fr-minor': 'Léa Petit — fransk, 16, kvinde',
    'turns-18-today': 'Hugo Bernard — fransk, fylder 18 i dag, mand',
    'turns-18-tomorrow': 'Chloé Moreau — fransk, fylder 18 i morgen, kvinde',
  },
};
