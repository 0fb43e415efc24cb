import type { SandboxCopy } from './index.ts';

/** Slovak: vykanie, Slovak quotation marks. */
export const sk: SandboxCopy = {
  personaLegend: 'Testovacia osoba',
  methodLegend: 'Spôsob overenia',
  methodOnlyWallet: 'Táto žiadosť je v režime peňaženky EUDI: odpovedať na ňu môže len peňaženka.',
  methodOnlyFace: 'Táto žiadosť nie je v režime peňaženky EUDI: peňaženka sa neponúka.',
  credentialLegend: 'Doklad v testovacej peňaženke',
  credentials: {
    av: 'Doklad o veku',
    pid: 'PID EÚ (totožnosť)',
    'pid-no-age': 'PID EÚ bez age_over_18 (dátum narodenia)',
    mdl: 'Mobilný vodičský preukaz',
    'pid-sd-jwt': 'PID EÚ ako SD-JWT VC',
    'pid-sd-jwt-revoked': 'PID EÚ ako SD-JWT VC, zneplatnený',
  },
  approve: 'Schváliť',
  fail: 'Nechať overenie zlyhať',
  cancel: 'Zrušiť',
  sending: 'Odosiela sa…',
  methods: { face_check: 'Kontrola tváre', eudi_wallet: 'Peňaženka EUDI' },
  sandboxSection: 'Alebo odpovedzte tu ako testovacia osoba',
  personas: {
    'fr-adult-m': 'Lucas Martin — Francúz, 34 rokov, muž',
    'fr-adult-f': 'Camille Dubois — Francúzka, 28 rokov, žena',
    'de-adult': 'Jonas Becker — Nemec, 45 rokov, muž',
    'us-adult': 'Emily Carter — Američanka, 31 rokov, žena',
    'fr-minor': 'Léa Petit — Francúzka, 16 rokov, žena',
    'turns-18-today': 'Hugo Bernard — Francúz, dnes má 18, muž',
    'turns-18-tomorrow': 'Chloé Moreau — Francúzka, zajtra bude mať 18, žena',
  },
};
