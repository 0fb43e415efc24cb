import type { SandboxCopy } from './index.ts';

/** Latvian: formal "Jūs", the phone page's words (src/phone/copy/lv.ts). */
export const lv: SandboxCopy = {
  personaLegend: 'Testa persona',
  methodLegend: 'Pārbaudes veids',
  methodOnlyWallet: 'Šis pieprasījums ir EUDI maka režīmā: uz to var atbildēt tikai maks.',
  methodOnlyFace: 'Šis pieprasījums nav EUDI maka režīmā: maks netiek piedāvāts.',
  credentialLegend: 'Apliecinājums testa makā',
  credentials: {
    av: 'Vecuma apliecinājums',
    pid: 'ES PID (identitāte)',
    'pid-no-age': 'ES PID bez age_over_18 (dzimšanas datums)',
    mdl: 'Mobilā vadītāja apliecība',
    'pid-sd-jwt': 'ES PID kā SD-JWT VC',
    'pid-sd-jwt-revoked': 'ES PID kā SD-JWT VC, atsaukts',
  },
  approve: 'Apstiprināt',
  fail: 'Likt pārbaudei neizdoties',
  cancel: 'Atcelt',
  sending: 'Sūtām…',
  methods: { face_check: 'Sejas pārbaude', eudi_wallet: 'EUDI maks' },
  sandboxSection: 'Vai atbildiet šeit kā testa persona',
  personas: {
    'fr-adult-m': 'Lucas Martin — francūzis, 34, vīrietis',
    'fr-adult-f': 'Camille Dubois — francūziete, 28, sieviete',
    'de-adult': 'Jonas Becker — vācietis, 45, vīrietis',
    'us-adult': 'Emily Carter — amerikāniete, 31, sieviete',
    'fr-minor': 'Léa Petit — francūziete, 16, sieviete',
    'turns-18-today': 'Hugo Bernard — francūzis, šodien paliek 18, vīrietis',
    'turns-18-tomorrow': 'Chloé Moreau — francūziete, rīt paliks 18, sieviete',
  },
};
