import type { SandboxCopy } from './index.ts';

/** German: formal "Sie", German quotation marks. */
export const de: SandboxCopy = {
  personaLegend: 'Testperson',
  methodLegend: 'Prüfmethode',
  methodOnlyWallet: 'Diese Anfrage läuft im EUDI-Wallet-Modus: Nur die Wallet kann sie beantworten.',
  methodOnlyFace: 'Diese Anfrage läuft nicht im EUDI-Wallet-Modus: Die Wallet wird nicht angeboten.',
  credentialLegend: 'Nachweis in der Test-Wallet',
  credentials: {
    av: 'Altersnachweis',
    pid: 'EU-PID (Identität)',
    'pid-no-age': 'EU-PID ohne age_over_18 (Geburtsdatum)',
    mdl: 'Mobiler Führerschein',
    'pid-sd-jwt': 'EU-PID als SD-JWT VC',
    'pid-sd-jwt-revoked': 'EU-PID als SD-JWT VC, widerrufen',
  },
  approve: 'Bestätigen',
  fail: 'Prüfung scheitern lassen',
  cancel: 'Abbrechen',
  sending: 'Wird gesendet\u00a0…',
  methods: { face_check: 'Gesichtsprüfung', eudi_wallet: 'EUDI-Wallet' },
  sandboxSection: 'Oder hier als Testperson antworten',
  personas: {
    'fr-adult-m': 'Lucas Martin — Franzose, 34, männlich',
    'fr-adult-f': 'Camille Dubois — Französin, 28, weiblich',
    'de-adult': 'Jonas Becker — Deutscher, 45, männlich',
    'us-adult': 'Emily Carter — Amerikanerin, 31, weiblich',
    'fr-minor': 'Léa Petit — Französin, 16, weiblich',
    'turns-18-today': 'Hugo Bernard — Franzose, wird heute 18, männlich',
    'turns-18-tomorrow': 'Chloé Moreau — Französin, wird morgen 18, weiblich',
  },
};
