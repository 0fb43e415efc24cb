import type { SandboxCopy } from './index.ts';

/** Italian: formal "Lei" in sentences; button labels in the imperative interfaces use. */
export const it: SandboxCopy = {
  personaLegend: 'Profilo di prova',
  methodLegend: 'Metodo di verifica',
  methodOnlyWallet: 'Questa richiesta è in modalità portafoglio EUDI: solo il portafoglio può rispondere.',
  methodOnlyFace: 'Questa richiesta non è in modalità portafoglio EUDI: il portafoglio non è disponibile.',
  credentialLegend: 'Credenziale nel portafoglio di prova',
  credentials: {
    av: 'Prova dell’età',
    pid: 'PID europeo (identità)',
    'pid-no-age': 'PID europeo senza age_over_18 (data di nascita)',
    mdl: 'Patente di guida mobile',
    'pid-sd-jwt': 'PID europeo come SD-JWT VC',
    'pid-sd-jwt-revoked': 'PID europeo come SD-JWT VC, revocato',
  },
  approve: 'Approva',
  fail: 'Fai fallire la verifica',
  cancel: 'Annulla',
  sending: 'Invio in corso…',
  methods: { face_check: 'Verifica del volto', eudi_wallet: 'Portafoglio EUDI' },
  sandboxSection: 'Oppure risponda qui con un profilo di prova',
  personas: {
    'fr-adult-m': 'Lucas Martin — francese, 34 anni, uomo',
    'fr-adult-f': 'Camille Dubois — francese, 28 anni, donna',
    'de-adult': 'Jonas Becker — tedesco, 45 anni, uomo',
    'us-adult': 'Emily Carter — statunitense, 31 anni, donna',
    'fr-minor': 'Léa Petit — francese, 16 anni, donna',
    'turns-18-today': 'Hugo Bernard — francese, compie 18 anni oggi, uomo',
    'turns-18-tomorrow': 'Chloé Moreau — francese, compie 18 anni domani, donna',
  },
};
