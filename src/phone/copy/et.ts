import type { PhoneCopy } from './index.ts';
import { plural } from './plural.ts';

/**
 * Estonian: formal "teie" in sentences, the short imperative on buttons, Estonian quotation marks
 * „…“, the widget's words (src/widget/copy/et.ts). Names stay in the nominative after a noun that
 * takes the case ("teenusega ${p}"), so no placeholder needs a case ending.
 */
export const et: PhoneCopy = {
  doneView: {
    title: 'Tagasi rahakotist',
    checking: 'Kontrollime…',
    shared: { title: 'Tõend on jagatud', help: 'Naaske veebisaidile, mis tõendit palus: see jätkab ise.' },
    ended: {
      title: 'See kontrollimine on lõppenud',
      help: 'Naaske veebisaidile, mis kontrollimist palus, et näha, kuidas see lõppes.',
    },
    neutral: {
      title: 'Siin pole midagi näidata',
      help: 'See link ei kehti või on juba kasutatud. Naaske lehele, kust tulite.',
    },
  },
  title: 'Testtelefon',
  pageTitle: 'Isikutuvastus',
  sandboxMark: 'Testrežiim',
  sandboxNote:
    'See leht asendab mobiilirakendust. Päris isikut ei kontrollita: valige testisik ja otsustage, milline on tulemus.',
  loading: 'Avame kontrollipäringu…',
  askedBy: (audience) => `${audience} palub teil tõendada järgmist:`,
  askedByBlind: 'Anonüümne veebisait palub teil tõendada järgmist:',
  blindNote: (app) =>
    `Kontrolliteenus ei saa teada, millise veebisaidiga on tegu. Tõend väljastatakse ainult rakendusele „${app}“.`,
  minimalNote: 'Telefonist lähevad välja ainult need vastused, mitte midagi muud teie kohta.',
  expiresIn: (text) => `Päring kehtib veel ${text}`,
  minutesLeft: (n) => plural('et', n, { one: 'Päring kehtib veel {n} minut', other: 'Päring kehtib veel {n} minutit' }),
  outcomes: {
    approved: { title: 'Kontrollimine on kinnitatud', help: 'Võite naasta veebisaidile: see jätkab ise.' },
    failed: { title: 'Kontrollimine ebaõnnestus', help: 'Veebisait näitab, et kontrollimine ei õnnestunud.' },
    cancelled: { title: 'Kontrollimine katkestati', help: 'Veebisait näitab, et katkestasite.' },
  },
  problems: {
    MISSING_LINK: {
      title: 'See link on puudulik',
      help: 'Skannige QR-kood uuesti või kasutage veebisaidil linki „Ava selles seadmes“.',
    },
    NOT_FOUND: {
      title: 'See kontrollilink ei kehti',
      help: 'Võib-olla on see valesti sisestatud või pole seda enam olemas. Alustage veebisaidil uuesti.',
    },
    ALREADY_FINISHED: {
      title: 'See kontrollimine on juba lõpetatud',
      help: 'Siin pole enam midagi teha. Naaske veebisaidile.',
    },
    REQUEST_EXPIRED: {
      title: 'See kontrollipäring on aegunud',
      help: 'Naaske veebisaidile: seal kuvatakse uus QR-kood.',
    },
    NETWORK_ERROR: { title: 'Teenusega ei saa ühendust', help: 'Kontrollige ühendust ja proovige uuesti.' },
    OTHER: { title: 'Midagi läks valesti', help: 'Proovige uuesti. Kui see kordub, alustage veebisaidil uuesti.' },
  },
  retry: 'Proovi uuesti',
  backToSite: 'Tagasi veebisaidile',
  scopes: {
    isAdult: 'Olete vähemalt 18-aastane',
    isFrench: 'Olete Prantsusmaa kodanik',
    isEU: 'Olete mõne ELi riigi kodanik',
    isMale: 'Teie sugu on mees',
    isFemale: 'Teie sugu on naine',
    isUnique: 'Olete selle veebisaidi jaoks üks ja sama isik (see saab tunnuse, mis kehtib ainult seal)',
    revealNationality: 'Teie kodakondsus (veebisait saab selle teada)',
    revealBirthYear: 'Teie sünniaasta (veebisait saab selle teada)',
  },
  methodsTitle: 'Kuidas soovite seda tõendada?',
  useWalletHere: 'Kasuta selles telefonis rahakotti',
  openWalletApp: 'Ava oma rahakotirakendus',
  continueWith: (p) => `Jätka teenusega ${p}`,
  opening: (p) => `Avame teenuse ${p}…`,
  walletWaiting: 'Ootame teie rahakoti vastust…',
  notices: {
    refused: {
      title: 'Me ei saanud seda sisselogimist kinnitada',
      help: 'Veebisaidiga ei jagatud midagi. Proovige uuesti või valige muu viis.',
    },
    wallet_declined: {
      title: 'Teie rahakott ei jaganud tõendit',
      help: 'Veebisaidiga ei jagatud midagi. Proovige uuesti või valige muu viis.',
    },
    wallet_refused: {
      title: 'Teie rahakoti tõendit ei õnnestunud kontrollida',
      help: 'Veebisaidiga ei jagatud midagi. Proovige uuesti või valige muu viis.',
    },
  },
  endings: {
    approved: {
      title: 'Valmis – võite naasta oma arvuti juurde',
      help: 'Veebisait jätkab ise. Kui alustasite selles telefonis, naaske lihtsalt veebisaidile.',
    },
    failed: { title: 'Kontrollimine ebaõnnestus', help: 'Veebisait näitab, et kontrollimine ei õnnestunud.' },
    cancelled: {
      title: 'Kontrollimine katkestati',
      help: 'Otsustasite oma andmeid mitte jagada. Veebisait näitab, et kontrollimine katkestati.',
    },
    claims_missing: {
      title: 'Teie isikutuvastusteenus ei jaganud küsitud andmeid',
      help: 'Veebisait näitab, et kontrollimine ei õnnestunud. Võite veebisaidil uuesti alustada.',
    },
    provider_error: {
      title: 'Teie isikutuvastusteenus ei saanud kontrollimist lõpule viia',
      help: 'Sellega ei saadud ühendust või oli selle vastus vigane. Alustage veebisaidil uuesti.',
    },
    ended: {
      title: 'See kontrollimine oli juba lõppenud',
      help: 'See lõpetati või aegus teie sisselogimise ajal. Naaske veebisaidile.',
    },
    link_expired: {
      title: 'See sisselogimislink on aegunud või juba kasutatud',
      help: 'Naaske veebisaidile ja alustage kontrollimist uuesti.',
    },
  },
  demoAudience: 'Disainerite demoleht',
};
