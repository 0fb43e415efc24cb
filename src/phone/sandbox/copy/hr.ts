import type { SandboxCopy } from './index.ts';

/** Croatian: the polite plural, Croatian quotation marks. */
export const hr: SandboxCopy = {
  personaLegend: 'Testna osoba',
  methodLegend: 'Način provjere',
  methodOnlyWallet: 'Ovaj je zahtjev u načinu rada lisnice EUDI: na njega može odgovoriti samo lisnica.',
  methodOnlyFace: 'Ovaj zahtjev nije u načinu rada lisnice EUDI: lisnica se ne nudi.',
  credentialLegend: 'Vjerodajnica u testnoj lisnici',
  credentials: {
    av: 'Dokaz o dobi',
    pid: 'EU PID (identitet)',
    'pid-no-age': 'EU PID bez age_over_18 (datum rođenja)',
    mdl: 'Mobilna vozačka dozvola',
    'pid-sd-jwt': 'EU PID kao SD-JWT VC',
    'pid-sd-jwt-revoked': 'EU PID kao SD-JWT VC, opozvan',
  },
  approve: 'Odobrite',
  fail: 'Odbijte provjeru',
  cancel: 'Odustanite',
  sending: 'Slanje…',
  methods: { face_check: 'Provjera lica', eudi_wallet: 'Lisnica EUDI' },
  sandboxSection: 'Ili odgovorite ovdje kao testna osoba',
  personas: {
    'fr-adult-m': 'Lucas Martin — Francuz, 34, muškarac',
    'fr-adult-f': 'Camille Dubois — Francuskinja, 28, žena',
    'de-adult': 'Jonas Becker — Nijemac, 45, muškarac',
    'us-adult': 'Emily Carter — Amerikanka, 31, žena',
    'fr-minor': 'Léa Petit — Francuskinja, 16, žena',
    'turns-18-today': 'Hugo Bernard — Francuz, danas puni 18, muškarac',
    'turns-18-tomorrow': 'Chloé Moreau — Francuskinja, sutra puni 18, žena',
  },
};
