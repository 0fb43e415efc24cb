import type { PhoneCopy } from './index.ts';
import { plural } from './plural.ts';

/**
 * Latvian: formal "Jūs", Latvian quotation marks „…“, the widget's words (src/widget/copy/lv.ts).
 * Placeholders stand where a name keeps its own form ("Turpināt, izmantojot ${p}").
 */
export const lv: PhoneCopy = {
  doneView: {
    title: 'Atgriešanās no maka',
    checking: 'Notiek pārbaude…',
    shared: { title: 'Pierādījums kopīgots', help: 'Atgriezieties vietnē, kas to pieprasīja: tā turpinās pati.' },
    ended: {
      title: 'Šī pārbaude ir beigusies',
      help: 'Atgriezieties vietnē, kas to pieprasīja, lai redzētu, kā tā beidzās.',
    },
    neutral: {
      title: 'Šeit nav ko rādīt',
      help: 'Šī saite nav derīga vai jau ir izmantota. Atgriezieties lapā, no kuras atnācāt.',
    },
  },
  title: 'Testa tālrunis',
  pageTitle: 'Identitātes pārbaude',
  sandboxMark: 'Testa režīms',
  sandboxNote:
    'Šī lapa aizstāj mobilo lietotni. Īsta identitāte netiek pārbaudīta: izvēlieties testa personu un nosakiet iznākumu.',
  loading: 'Atveram pārbaudes pieprasījumu…',
  askedBy: (audience) => `${audience} lūdz Jūs apliecināt:`,
  askedByBlind: 'Anonīma vietne lūdz Jūs apliecināt:',
  blindNote: (app) =>
    `Pārbaudes pakalpojums neuzzina, kura vietne tā ir. Pierādījums tiek izsniegts tikai lietotnei „${app}“.`,
  minimalNote: 'No tālruņa tiek nosūtītas tikai šīs atbildes – nekas cits par Jums.',
  expiresIn: (text) => `Pieprasījums derīgs vēl ${text}`,
  minutesLeft: (n) =>
    plural('lv', n, {
      zero: 'Pieprasījums derīgs vēl {n} minūšu',
      one: 'Pieprasījums derīgs vēl {n} minūti',
      other: 'Pieprasījums derīgs vēl {n} minūtes',
    }),
  outcomes: {
    approved: { title: 'Pārbaude apstiprināta', help: 'Varat atgriezties vietnē: tā turpinās pati.' },
    failed: { title: 'Pārbaude neizdevās', help: 'Vietnē tiks parādīts, ka pārbaude neizdevās.' },
    cancelled: { title: 'Pārbaude atcelta', help: 'Vietnē tiks parādīts, ka atcēlāt pārbaudi.' },
  },
  problems: {
    MISSING_LINK: {
      title: 'Šī saite nav pilnīga',
      help: 'Noskenējiet QR kodu vēlreiz vai izmantojiet vietnē saiti „Atvērt šajā ierīcē“.',
    },
    NOT_FOUND: {
      title: 'Šī pārbaudes saite nav derīga',
      help: 'Iespējams, tā ievadīta kļūdaini vai vairs nepastāv. Sāciet no jauna vietnē.',
    },
    ALREADY_FINISHED: {
      title: 'Šī pārbaude jau ir pabeigta',
      help: 'Šeit vairs nav ko darīt. Atgriezieties vietnē.',
    },
    REQUEST_EXPIRED: {
      title: 'Šī pārbaudes pieprasījuma derīgums ir beidzies',
      help: 'Atgriezieties vietnē: tur būs redzams jauns QR kods.',
    },
    NETWORK_ERROR: { title: 'Pakalpojums nav sasniedzams', help: 'Pārbaudiet savienojumu un mēģiniet vēlreiz.' },
    OTHER: { title: 'Radās kļūda', help: 'Mēģiniet vēlreiz. Ja tas atkārtojas, sāciet no jauna vietnē.' },
  },
  retry: 'Mēģināt vēlreiz',
  backToSite: 'Atgriezties vietnē',
  scopes: {
    isAdult: 'Jums ir 18 gadi vai vairāk',
    isFrench: 'Jums ir Francijas pilsonība',
    isEU: 'Jums ir kādas ES valsts pilsonība',
    isMale: 'Jūsu dzimums – vīrietis',
    isFemale: 'Jūsu dzimums – sieviete',
    isUnique: 'Šai vietnei Jūs esat viena un tā pati persona (tā saņem identifikatoru, kas derīgs tikai tur)',
    revealNationality: 'Jūsu pilsonība (vietne to saņem)',
    revealBirthYear: 'Jūsu dzimšanas gads (vietne to saņem)',
  },
  methodsTitle: 'Kā vēlaties to apliecināt?',
  useWalletHere: 'Izmantot maku šajā tālrunī',
  openWalletApp: 'Atvērt maka lietotni',
  continueWith: (p) => `Turpināt, izmantojot ${p}`,
  opening: (p) => `Atveram ${p}…`,
  walletWaiting: 'Gaidām atbildi no Jūsu maka…',
  notices: {
    refused: {
      title: 'Mēs nevarējām apstiprināt šo pieteikšanos',
      help: 'Ar vietni nekas netika kopīgots. Mēģiniet vēlreiz vai izvēlieties citu veidu.',
    },
    wallet_declined: {
      title: 'Jūsu maks nekopīgoja pierādījumu',
      help: 'Ar vietni nekas netika kopīgots. Mēģiniet vēlreiz vai izvēlieties citu veidu.',
    },
    wallet_refused: {
      title: 'Jūsu maka pierādījumu neizdevās pārbaudīt',
      help: 'Ar vietni nekas netika kopīgots. Mēģiniet vēlreiz vai izvēlieties citu veidu.',
    },
  },
  endings: {
    approved: {
      title: 'Gatavs – varat atgriezties pie datora',
      help: 'Vietne turpinās pati. Ja sākāt šajā tālrunī, vienkārši atgriezieties vietnē.',
    },
    failed: { title: 'Pārbaude neizdevās', help: 'Vietnē tiks parādīts, ka pārbaude neizdevās.' },
    cancelled: {
      title: 'Pārbaude atcelta',
      help: 'Jūs izvēlējāties nekopīgot savus datus. Vietnē tiks parādīts, ka pārbaude tika atcelta.',
    },
    claims_missing: {
      title: 'Jūsu identitātes nodrošinātājs nekopīgoja pieprasītos datus',
      help: 'Vietnē tiks parādīts, ka pārbaude neizdevās. Varat sākt no jauna vietnē.',
    },
    provider_error: {
      title: 'Jūsu identitātes nodrošinātājs nevarēja pabeigt pārbaudi',
      help: 'Tas nebija sasniedzams vai tā atbilde nebija derīga. Sāciet no jauna vietnē.',
    },
    ended: {
      title: 'Šī pārbaude jau bija beigusies',
      help: 'Tā tika pabeigta vai tās derīgums beidzās, kamēr pieteicāties. Atgriezieties vietnē.',
    },
    link_expired: {
      title: 'Šīs pieteikšanās saites derīgums ir beidzies vai tā jau izmantota',
      help: 'Atgriezieties vietnē un sāciet pārbaudi no jauna.',
    },
  },
  demoAudience: 'Dizaineru demonstrācijas lapa',
};
