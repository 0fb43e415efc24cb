import type { SandboxCopy } from './index.ts';

/** Czech: vykání, Czech quotation marks. */
export const cs: SandboxCopy = {
  personaLegend: 'Testovací osoba',
  methodLegend: 'Způsob ověření',
  methodOnlyWallet: 'Tato žádost je v režimu peněženky EUDI: odpovědět na ni může jen peněženka.',
  methodOnlyFace: 'Tato žádost není v režimu peněženky EUDI: peněženka se nenabízí.',
  credentialLegend: 'Doklad v testovací peněžence',
  credentials: {
    av: 'Doklad o věku',
    pid: 'EU PID (totožnost)',
    'pid-no-age': 'EU PID bez age_over_18 (datum narození)',
    mdl: 'Mobilní řidičský průkaz',
    'pid-sd-jwt': 'EU PID jako SD-JWT VC',
    'pid-sd-jwt-revoked': 'EU PID jako SD-JWT VC, zneplatněný',
  },
  approve: 'Schválit',
  fail: 'Nechat ověření selhat',
  cancel: 'Zrušit',
  sending: 'Odesílání…',
  methods: { face_check: 'Kontrola obličeje', eudi_wallet: 'Peněženka EUDI' },
  sandboxSection: 'Nebo odpovězte zde jako testovací osoba',
  personas: {
    'fr-adult-m': 'Lucas Martin — Francouz, 34 let, muž',
    'fr-adult-f': 'Camille Dubois — Francouzka, 28 let, žena',
    'de-adult': 'Jonas Becker — Němec, 45 let, muž',
    'us-adult': 'Emily Carter — Američanka, 31 let, žena',
    'fr-minor': 'Léa Petit — Francouzka, 16 let, žena',
    'turns-18-today': 'Hugo Bernard — Francouz, dnes mu je 18, muž',
    'turns-18-tomorrow': 'Chloé Moreau — Francouzka, zítra jí bude 18, žena',
  },
};
