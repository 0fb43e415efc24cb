import type { SandboxCopy } from './index.ts';

/** Maltese: the courteous singular of Maltese public services, the phone page's words (src/phone/copy/mt.ts). */
export const mt: SandboxCopy = {
  personaLegend: 'Persuna tat-test',
  methodLegend: 'Metodu ta’ verifika',
  methodOnlyWallet: 'Din it-talba hija fil-modalità tal-kartiera EUDI: il-kartiera biss tista’ twieġeb.',
  methodOnlyFace: 'Din it-talba mhix fil-modalità tal-kartiera EUDI: il-kartiera mhix offruta.',
  credentialLegend: 'Kredenzjali fil-kartiera tat-test',
  credentials: {
    av: 'Prova tal-età',
    pid: 'PID tal-UE (identità)',
    'pid-no-age': 'PID tal-UE mingħajr age_over_18 (data tat-twelid)',
    mdl: 'Liċenzja tas-sewqan mobbli',
    'pid-sd-jwt': 'PID tal-UE bħala SD-JWT VC',
    'pid-sd-jwt-revoked': 'PID tal-UE bħala SD-JWT VC, revokata',
  },
  approve: 'Approva',
  fail: 'Ħalli l-verifika tfalli',
  cancel: 'Ikkanċella',
  sending: 'Qed tintbagħat…',
  methods: { face_check: 'Verifika tal-wiċċ', eudi_wallet: 'Kartiera EUDI' },
  sandboxSection: 'Jew wieġeb hawn bħala persuna tat-test',
  personas: {
    'fr-adult-m': 'Lucas Martin — Franċiż, 34, raġel',
    'fr-adult-f': 'Camille Dubois — Franċiża, 28, mara',
    'de-adult': 'Jonas Becker — Ġermaniż, 45, raġel',
    'us-adult': 'Emily Carter — Amerikana, 31, mara',
    'fr-minor': 'Léa Petit — Franċiża, 16, mara',
    'turns-18-today': 'Hugo Bernard — Franċiż, jagħlaq 18-il sena llum, raġel',
    'turns-18-tomorrow': 'Chloé Moreau — Franċiża, tagħlaq 18-il sena għada, mara',
  },
};
