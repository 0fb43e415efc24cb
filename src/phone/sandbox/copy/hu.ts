import type { SandboxCopy } from './index.ts';

/** Hungarian: the formal "Ön" form. */
export const hu: SandboxCopy = {
  personaLegend: 'Tesztszemély',
  methodLegend: 'Ellenőrzési mód',
  methodOnlyWallet: 'Ez a kérés EUDI-tárca módban fut: csak a tárca válaszolhat rá.',
  methodOnlyFace: 'Ez a kérés nem EUDI-tárca módban fut: a tárca nem választható.',
  credentialLegend: 'Igazolvány a teszttárcában',
  credentials: {
    av: 'Életkor-igazolás',
    pid: 'Uniós PID (személyazonosság)',
    'pid-no-age': 'Uniós PID age_over_18 nélkül (születési dátum)',
    mdl: 'Mobil vezetői engedély',
    'pid-sd-jwt': 'Uniós PID SD-JWT VC formátumban',
    'pid-sd-jwt-revoked': 'Uniós PID SD-JWT VC formátumban, visszavonva',
  },
  approve: 'Jóváhagyás',
  fail: 'Ellenőrzés elutasítása',
  cancel: 'Mégse',
  sending: 'Küldés…',
  methods: { face_check: 'Arcellenőrzés', eudi_wallet: 'EUDI-tárca' },
  sandboxSection: 'Vagy válaszoljon itt tesztszemélyként',
  personas: {
    'fr-adult-m': 'Lucas Martin — francia, 34 éves, férfi',
    'fr-adult-f': 'Camille Dubois — francia, 28 éves, nő',
    'de-adult': 'Jonas Becker — német, 45 éves, férfi',
    'us-adult': 'Emily Carter — amerikai, 31 éves, nő',
    'fr-minor': 'Léa Petit — francia, 16 éves, nő',
    'turns-18-today': 'Hugo Bernard — francia, ma tölti be a 18-at, férfi',
    'turns-18-tomorrow': 'Chloé Moreau — francia, holnap tölti be a 18-at, nő',
  },
};
