import type { SandboxCopy } from './index.ts';

/** Dutch: formal "u". */
export const nl: SandboxCopy = {
  personaLegend: 'Testpersoon',
  methodLegend: 'Verificatiemethode',
  methodOnlyWallet: 'Dit verzoek staat in EUDI-walletmodus: alleen de wallet kan het beantwoorden.',
  methodOnlyFace: 'Dit verzoek staat niet in EUDI-walletmodus: de wallet wordt niet aangeboden.',
  credentialLegend: 'Bewijs in de testwallet',
  credentials: {
    av: 'Leeftijdsbewijs',
    pid: 'Europese PID (identiteit)',
    'pid-no-age': 'Europese PID zonder age_over_18 (geboortedatum)',
    mdl: 'Mobiel rijbewijs',
    'pid-sd-jwt': 'Europese PID als SD-JWT VC',
    'pid-sd-jwt-revoked': 'Europese PID als SD-JWT VC, ingetrokken',
  },
  approve: 'Goedkeuren',
  fail: 'Controle laten mislukken',
  cancel: 'Annuleren',
  sending: 'Bezig met verzenden…',
  methods: { face_check: 'Gezichtscontrole', eudi_wallet: 'EUDI-wallet' },
  sandboxSection: 'Of antwoord hier als testpersoon',
  personas: {
    'fr-adult-m': 'Lucas Martin — Frans, 34, man',
    'fr-adult-f': 'Camille Dubois — Frans, 28, vrouw',
    'de-adult': 'Jonas Becker — Duits, 45, man',
    'us-adult': 'Emily Carter — Amerikaans, 31, vrouw',
    'fr-minor': 'Léa Petit — Frans, 16, vrouw',
    'turns-18-today': 'Hugo Bernard — Frans, wordt vandaag 18, man',
    'turns-18-tomorrow': 'Chloé Moreau — Frans, wordt morgen 18, vrouw',
  },
};
