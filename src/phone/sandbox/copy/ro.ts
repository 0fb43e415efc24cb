import type { SandboxCopy } from './index.ts';

/** Romanian: the polite plural, Romanian quotation marks, ș and ț with the comma below. */
export const ro: SandboxCopy = {
  personaLegend: 'Persoană de test',
  methodLegend: 'Metodă de verificare',
  methodOnlyWallet: 'Această cerere este în modul portofel EUDI: doar portofelul îi poate răspunde.',
  methodOnlyFace: 'Această cerere nu este în modul portofel EUDI: portofelul nu este oferit.',
  credentialLegend: 'Atestare în portofelul de test',
  credentials: {
    av: 'Dovada vârstei',
    pid: 'PID UE (identitate)',
    'pid-no-age': 'PID UE fără age_over_18 (data nașterii)',
    mdl: 'Permis de conducere mobil',
    'pid-sd-jwt': 'PID UE ca SD-JWT VC',
    'pid-sd-jwt-revoked': 'PID UE ca SD-JWT VC, revocat',
  },
  approve: 'Aprobați',
  fail: 'Respingeți verificarea',
  cancel: 'Anulați',
  sending: 'Se trimite…',
  methods: { face_check: 'Verificarea feței', eudi_wallet: 'Portofel EUDI' },
  sandboxSection: 'Sau răspundeți aici ca persoană de test',
  personas: {
    'fr-adult-m': 'Lucas Martin — francez, 34 de ani, bărbat',
    'fr-adult-f': 'Camille Dubois — franțuzoaică, 28 de ani, femeie',
    'de-adult': 'Jonas Becker — german, 45 de ani, bărbat',
    'us-adult': 'Emily Carter — americancă, 31 de ani, femeie',
    'fr-minor': 'Léa Petit — franțuzoaică, 16 ani, femeie',
    'turns-18-today': 'Hugo Bernard — francez, împlinește 18 ani azi, bărbat',
    'turns-18-tomorrow': 'Chloé Moreau — franțuzoaică, împlinește 18 ani mâine, femeie',
  },
};
