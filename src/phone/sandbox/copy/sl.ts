import type { SandboxCopy } from './index.ts';

/** Slovenian: vikanje, Slovenian quotation marks. */
export const sl: SandboxCopy = {
  personaLegend: 'Preizkusna oseba',
  methodLegend: 'Način preverjanja',
  methodOnlyWallet: 'Ta zahteva je v načinu denarnice EUDI: nanjo lahko odgovori samo denarnica.',
  methodOnlyFace: 'Ta zahteva ni v načinu denarnice EUDI: denarnica ni na voljo.',
  credentialLegend: 'Poverilnica v preizkusni denarnici',
  credentials: {
    av: 'Dokazilo o starosti',
    pid: 'EU PID (identiteta)',
    'pid-no-age': 'EU PID brez age_over_18 (datum rojstva)',
    mdl: 'Mobilno vozniško dovoljenje',
    'pid-sd-jwt': 'EU PID kot SD-JWT VC',
    'pid-sd-jwt-revoked': 'EU PID kot SD-JWT VC, preklican',
  },
  approve: 'Odobrite',
  fail: 'Zavrnite preverjanje',
  cancel: 'Prekličite',
  sending: 'Pošiljanje…',
  methods: { face_check: 'Preverjanje obraza', eudi_wallet: 'Denarnica EUDI' },
  sandboxSection: 'Ali pa odgovorite tukaj kot preizkusna oseba',
  personas: {
    'fr-adult-m': 'Lucas Martin — Francoz, 34, moški',
    'fr-adult-f': 'Camille Dubois — Francozinja, 28, ženska',
    'de-adult': 'Jonas Becker — Nemec, 45, moški',
    'us-adult': 'Emily Carter — Američanka, 31, ženska',
    'fr-minor': 'Léa Petit — Francozinja, 16, ženska',
    'turns-18-today': 'Hugo Bernard — Francoz, danes dopolni 18, moški',
    'turns-18-tomorrow': 'Chloé Moreau — Francozinja, jutri dopolni 18, ženska',
  },
};
