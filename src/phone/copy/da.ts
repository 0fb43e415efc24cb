import type { PhoneCopy } from './index.ts';
import { plural } from './plural.ts';

/** Danish: "du", Danish quotation marks »…«, the widget's words (src/widget/copy/da.ts). */
export const da: PhoneCopy = {
  doneView: {
    title: 'Tilbage fra din tegnebog',
    checking: 'Kontrollerer…',
    shared: { title: 'Beviset er delt', help: 'Gå tilbage til webstedet, der bad om det: Det fortsætter af sig selv.' },
    ended: {
      title: 'Verifikationen er afsluttet',
      help: 'Gå tilbage til webstedet, der bad om den, for at se, hvordan den endte.',
    },
    neutral: {
      title: 'Her er intet at vise',
      help: 'Linket er ugyldigt eller allerede brugt. Gå tilbage til den side, du kom fra.',
    },
  },
  title: 'Testtelefon',
  pageTitle: 'Identitetskontrol',
  sandboxMark: 'Testtilstand',
  sandboxNote:
    'Denne side træder i stedet for mobilappen. Der kontrolleres ingen rigtig identitet: Vælg en testperson, og bestem udfaldet.',
  loading: 'Åbner verifikationsanmodningen…',
  askedBy: (audience) => `${audience} beder dig bevise følgende:`,
  askedByBlind: 'Et anonymt websted beder dig bevise følgende:',
  blindNote: (app) =>
    `Verifikationstjenesten får ikke at vide, hvilket websted det drejer sig om. Beviset udstedes kun til appen »${app}«.`,
  minimalNote: 'Kun disse svar forlader telefonen – intet andet om dig.',
  expiresIn: (text) => `Anmodningen udløber om ${text}`,
  minutesLeft: (n) =>
    plural('da', n, { one: 'Anmodningen udløber om {n} minut', other: 'Anmodningen udløber om {n} minutter' }),
  outcomes: {
    approved: {
      title: 'Verifikationen er godkendt',
      help: 'Du kan gå tilbage til webstedet: Det fortsætter af sig selv.',
    },
    failed: { title: 'Verifikationen mislykkedes', help: 'Webstedet viser, at kontrollen ikke lykkedes.' },
    cancelled: { title: 'Verifikationen blev annulleret', help: 'Webstedet viser, at du annullerede.' },
  },
  problems: {
    MISSING_LINK: {
      title: 'Linket er ufuldstændigt',
      help: 'Scan QR-koden igen, eller brug linket »Åbn på denne enhed« på webstedet.',
    },
    NOT_FOUND: {
      title: 'Verifikationslinket er ikke gyldigt',
      help: 'Det er måske skrevet forkert eller findes ikke længere. Start forfra på webstedet.',
    },
    ALREADY_FINISHED: {
      title: 'Verifikationen er allerede afsluttet',
      help: 'Der er ikke mere at gøre her. Gå tilbage til webstedet.',
    },
    REQUEST_EXPIRED: {
      title: 'Verifikationsanmodningen er udløbet',
      help: 'Gå tilbage til webstedet: Der vises en ny QR-kode, som du kan scanne.',
    },
    NETWORK_ERROR: { title: 'Tjenesten kan ikke nås', help: 'Tjek forbindelsen, og prøv igen.' },
    OTHER: { title: 'Noget gik galt', help: 'Prøv igen. Hvis det bliver ved, så start forfra på webstedet.' },
  },
  retry: 'Prøv igen',
  backToSite: 'Tilbage til webstedet',
  scopes: {
    isAdult: 'Du er 18 år eller ældre',
    isFrench: 'Du er fransk statsborger',
    isEU: 'Du er statsborger i et EU-land',
    isMale: 'Dit køn er mand',
    isFemale: 'Dit køn er kvinde',
    isUnique: 'Du er én og samme person over for dette websted (det får et id, der kun gælder der)',
    revealNationality: 'Dit statsborgerskab (webstedet får det at vide)',
    revealBirthYear: 'Dit fødselsår (webstedet får det at vide)',
  },
  methodsTitle: 'Hvordan vil du bevise det?',
  useWalletHere: 'Brug en tegnebog på denne telefon',
  openWalletApp: 'Åbn din tegnebogsapp',
  continueWith: (p) => `Fortsæt med ${p}`,
  opening: (p) => `Åbner ${p}…`,
  walletWaiting: 'Venter på din tegnebog…',
  notices: {
    refused: {
      title: 'Vi kunne ikke bekræfte dette login',
      help: 'Intet blev delt med webstedet. Prøv igen, eller vælg en anden måde.',
    },
    wallet_declined: {
      title: 'Din tegnebog delte ikke noget bevis',
      help: 'Intet blev delt med webstedet. Prøv igen, eller vælg en anden måde.',
    },
    wallet_refused: {
      title: 'Beviset fra din tegnebog kunne ikke kontrolleres',
      help: 'Intet blev delt med webstedet. Prøv igen, eller vælg en anden måde.',
    },
  },
  endings: {
    approved: {
      title: 'Færdig – du kan gå tilbage til din computer',
      help: 'Webstedet fortsætter af sig selv. Hvis du startede på denne telefon, skal du bare gå tilbage til webstedet.',
    },
    failed: { title: 'Verifikationen mislykkedes', help: 'Webstedet viser, at kontrollen ikke lykkedes.' },
    cancelled: {
      title: 'Verifikationen blev annulleret',
      help: 'Du valgte ikke at dele dine oplysninger. Webstedet viser, at verifikationen blev annulleret.',
    },
    claims_missing: {
      title: 'Din identitetsudbyder delte ikke det, der blev bedt om',
      help: 'Webstedet viser, at kontrollen ikke lykkedes. Du kan starte forfra på webstedet.',
    },
    provider_error: {
      title: 'Din identitetsudbyder kunne ikke gennemføre kontrollen',
      help: 'Den kunne ikke nås, eller dens svar var ugyldigt. Start forfra på webstedet.',
    },
    ended: {
      title: 'Verifikationen var allerede afsluttet',
      help: 'Den blev afsluttet eller udløb, mens du loggede ind. Gå tilbage til webstedet.',
    },
    link_expired: {
      title: 'Loginlinket er udløbet eller allerede brugt',
      help: 'Gå tilbage til webstedet, og start verifikationen igen.',
    },
  },
  demoAudience: 'Designernes demoside',
};
