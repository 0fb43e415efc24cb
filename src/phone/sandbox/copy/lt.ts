import type { SandboxCopy } from './index.ts';

/** Lithuanian: formal "Jūs", the phone page's words (src/phone/copy/lt.ts). */
export const lt: SandboxCopy = {
  personaLegend: 'Bandomasis asmuo',
  methodLegend: 'Patikrinimo būdas',
  methodOnlyWallet: 'Ši užklausa pateikta EUDI piniginės režimu: į ją atsakyti gali tik piniginė.',
  methodOnlyFace: 'Ši užklausa pateikta ne EUDI piniginės režimu: piniginė nesiūloma.',
  credentialLegend: 'Dokumentas bandomojoje piniginėje',
  credentials: {
    av: 'Amžiaus įrodymas',
    pid: 'ES PID (tapatybė)',
    'pid-no-age': 'ES PID be age_over_18 (gimimo data)',
    mdl: 'Mobilusis vairuotojo pažymėjimas',
    'pid-sd-jwt': 'ES PID kaip SD-JWT VC',
    'pid-sd-jwt-revoked': 'ES PID kaip SD-JWT VC, atšauktas',
  },
  approve: 'Patvirtinti',
  fail: 'Pažymėti kaip nepavykusį',
  cancel: 'Atšaukti',
  sending: 'Siunčiama…',
  methods: { face_check: 'Veido patikrinimas', eudi_wallet: 'EUDI piniginė' },
  sandboxSection: 'Arba atsakykite čia kaip bandomasis asmuo',
  personas: {
    'fr-adult-m': 'Lucas Martin — prancūzas, 34, vyras',
    'fr-adult-f': 'Camille Dubois — prancūzė, 28, moteris',
    'de-adult': 'Jonas Becker — vokietis, 45, vyras',
    'us-adult': 'Emily Carter — amerikietė, 31, moteris',
    'fr-minor': 'Léa Petit — prancūzė, 16, moteris',
    'turns-18-today': 'Hugo Bernard — prancūzas, šiandien sukanka 18, vyras',
    'turns-18-tomorrow': 'Chloé Moreau — prancūzė, rytoj sukaks 18, moteris',
  },
};
