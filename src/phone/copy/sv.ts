import type { PhoneCopy } from './index.ts';
import { plural } from './plural.ts';

/** Swedish: "du", Swedish quotation marks ”…”, the widget's words (src/widget/copy/sv.ts). */
export const sv: PhoneCopy = {
  doneView: {
    title: 'Tillbaka från din plånbok',
    checking: 'Kontrollerar…',
    shared: {
      title: 'Beviset har delats',
      help: 'Gå tillbaka till webbplatsen som bad om det: den fortsätter av sig själv.',
    },
    ended: {
      title: 'Verifieringen är avslutad',
      help: 'Gå tillbaka till webbplatsen som bad om den för att se hur den slutade.',
    },
    neutral: {
      title: 'Här finns inget att visa',
      help: 'Länken är ogiltig eller har redan använts. Gå tillbaka till sidan du kom från.',
    },
  },
  title: 'Testmobil',
  pageTitle: 'Identitetskontroll',
  sandboxMark: 'Testläge',
  sandboxNote:
    'Den här sidan ersätter mobilappen. Ingen riktig identitet kontrolleras: välj en testperson och bestäm utfallet.',
  loading: 'Öppnar verifieringsbegäran…',
  askedBy: (audience) => `${audience} ber dig bevisa följande:`,
  askedByBlind: 'En anonym webbplats ber dig bevisa följande:',
  blindNote: (app) =>
    `Verifieringstjänsten får inte veta vilken webbplats det gäller. Beviset utfärdas bara för appen ”${app}”.`,
  minimalNote: 'Bara de här svaren lämnar mobilen, inget annat om dig.',
  expiresIn: (text) => `Begäran går ut om ${text}`,
  minutesLeft: (n) => plural('sv', n, { one: 'Begäran går ut om {n} minut', other: 'Begäran går ut om {n} minuter' }),
  outcomes: {
    approved: {
      title: 'Verifieringen godkändes',
      help: 'Du kan gå tillbaka till webbplatsen: den fortsätter av sig själv.',
    },
    failed: { title: 'Verifieringen misslyckades', help: 'Webbplatsen visar att kontrollen inte gick igenom.' },
    cancelled: { title: 'Verifieringen avbröts', help: 'Webbplatsen visar att du avbröt.' },
  },
  problems: {
    MISSING_LINK: {
      title: 'Länken är ofullständig',
      help: 'Skanna QR-koden igen eller använd länken ”Öppna på den här enheten” på webbplatsen.',
    },
    NOT_FOUND: {
      title: 'Verifieringslänken är ogiltig',
      help: 'Den kan vara felskriven eller inte finnas längre. Börja om från webbplatsen.',
    },
    ALREADY_FINISHED: {
      title: 'Verifieringen är redan avslutad',
      help: 'Det finns inget mer att göra här. Gå tillbaka till webbplatsen.',
    },
    REQUEST_EXPIRED: {
      title: 'Verifieringsbegäran har gått ut',
      help: 'Gå tillbaka till webbplatsen: där visas en ny QR-kod att skanna.',
    },
    NETWORK_ERROR: { title: 'Det går inte att nå tjänsten', help: 'Kontrollera anslutningen och försök igen.' },
    OTHER: { title: 'Något gick fel', help: 'Försök igen. Om det fortsätter, börja om från webbplatsen.' },
  },
  retry: 'Försök igen',
  backToSite: 'Tillbaka till webbplatsen',
  scopes: {
    isAdult: 'Du är 18 år eller äldre',
    isFrench: 'Du är fransk medborgare',
    isEU: 'Du är medborgare i ett EU-land',
    isMale: 'Ditt kön är man',
    isFemale: 'Ditt kön är kvinna',
    isUnique: 'Du är en och samma person för den här webbplatsen (den får en identifierare som bara gäller där)',
    revealNationality: 'Ditt medborgarskap (webbplatsen får veta det)',
    revealBirthYear: 'Ditt födelseår (webbplatsen får veta det)',
  },
  methodsTitle: 'Hur vill du bevisa det?',
  useWalletHere: 'Använd en plånbok på den här mobilen',
  openWalletApp: 'Öppna din plånboksapp',
  continueWith: (p) => `Fortsätt med ${p}`,
  opening: (p) => `Öppnar ${p}…`,
  walletWaiting: 'Väntar på din plånbok…',
  notices: {
    refused: {
      title: 'Vi kunde inte bekräfta inloggningen',
      help: 'Inget delades med webbplatsen. Försök igen eller välj ett annat sätt.',
    },
    wallet_declined: {
      title: 'Din plånbok delade inget bevis',
      help: 'Inget delades med webbplatsen. Försök igen eller välj ett annat sätt.',
    },
    wallet_refused: {
      title: 'Beviset från din plånbok kunde inte kontrolleras',
      help: 'Inget delades med webbplatsen. Försök igen eller välj ett annat sätt.',
    },
  },
  endings: {
    approved: {
      title: 'Klart – du kan gå tillbaka till datorn',
      help: 'Webbplatsen fortsätter av sig själv. Om du började på den här mobilen går du bara tillbaka till webbplatsen.',
    },
    failed: { title: 'Verifieringen misslyckades', help: 'Webbplatsen visar att kontrollen inte gick igenom.' },
    cancelled: {
      title: 'Verifieringen avbröts',
      help: 'Du valde att inte dela dina uppgifter. Webbplatsen visar att verifieringen avbröts.',
    },
    claims_missing: {
      title: 'Din identitetsleverantör delade inte det som efterfrågades',
      help: 'Webbplatsen visar att kontrollen inte gick igenom. Du kan börja om från webbplatsen.',
    },
    provider_error: {
      title: 'Din identitetsleverantör kunde inte slutföra kontrollen',
      help: 'Den gick inte att nå eller gav ett ogiltigt svar. Börja om från webbplatsen.',
    },
    ended: {
      title: 'Verifieringen var redan avslutad',
      help: 'Den slutfördes eller gick ut medan du loggade in. Gå tillbaka till webbplatsen.',
    },
    link_expired: {
      title: 'Inloggningslänken har gått ut eller redan använts',
      help: 'Gå tillbaka till webbplatsen och starta verifieringen igen.',
    },
  },
  demoAudience: 'Designernas demosida',
};
