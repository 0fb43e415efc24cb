import type { PhoneCopy } from './index.ts';
import { plural } from './plural.ts';

/**
 * Lithuanian: formal "Jūs", Lithuanian quotation marks „…“, the widget's words
 * (src/widget/copy/lt.ts). Placeholders stand where a name keeps its own form
 * ("Tęsti naudojant ${p}"), so no name needs a case ending.
 */
export const lt: PhoneCopy = {
  doneView: {
    title: 'Grįžote iš piniginės',
    checking: 'Tikrinama…',
    shared: { title: 'Įrodymas pateiktas', help: 'Grįžkite į svetainę, kuri jo prašė: ji tęs savaime.' },
    ended: {
      title: 'Šis patikrinimas baigėsi',
      help: 'Grįžkite į svetainę, kuri jo prašė, ir pamatysite, kuo jis baigėsi.',
    },
    neutral: {
      title: 'Čia nėra ką rodyti',
      help: 'Ši nuoroda negalioja arba jau panaudota. Grįžkite į puslapį, iš kurio atėjote.',
    },
  },
  title: 'Bandomasis telefonas',
  pageTitle: 'Tapatybės patikrinimas',
  sandboxMark: 'Bandomasis režimas',
  sandboxNote:
    'Šis puslapis atstoja mobiliąją programėlę. Tikra tapatybė netikrinama: ' +
    'pasirinkite bandomąjį asmenį ir nuspręskite, koks bus rezultatas.',
  loading: 'Atidaroma patikrinimo užklausa…',
  askedBy: (audience) => `${audience} prašo Jūsų įrodyti:`,
  askedByBlind: 'Anoniminė svetainė prašo Jūsų įrodyti:',
  blindNote: (app) =>
    `Patikrinimo paslaugai nepranešama, kokia tai svetainė. Įrodymas išduodamas tik programėlei „${app}“.`,
  minimalNote: 'Iš telefono siunčiami tik šie atsakymai – jokios kitos informacijos apie Jus.',
  expiresIn: (text) => `Užklausa galioja dar ${text}`,
  minutesLeft: (n) =>
    plural('lt', n, {
      one: 'Užklausa galioja dar {n} minutę',
      few: 'Užklausa galioja dar {n} minutes',
      many: 'Užklausa galioja dar {n} minutės',
      other: 'Užklausa galioja dar {n} minučių',
    }),
  outcomes: {
    approved: { title: 'Patikrinimas patvirtintas', help: 'Galite grįžti į svetainę: ji tęs savaime.' },
    failed: { title: 'Patikrinti nepavyko', help: 'Svetainėje bus parodyta, kad patikrinti nepavyko.' },
    cancelled: { title: 'Patikrinimas atšauktas', help: 'Svetainėje bus parodyta, kad atšaukėte.' },
  },
  problems: {
    MISSING_LINK: {
      title: 'Ši nuoroda neišsami',
      help: 'Dar kartą nuskaitykite QR kodą arba svetainėje naudokite nuorodą „Atidaryti šiame įrenginyje“.',
    },
    NOT_FOUND: {
      title: 'Ši patikrinimo nuoroda negalioja',
      help: 'Galbūt ji įvesta su klaida arba nebeegzistuoja. Pradėkite iš naujo svetainėje.',
    },
    ALREADY_FINISHED: {
      title: 'Šis patikrinimas jau baigtas',
      help: 'Čia nebėra ką veikti. Grįžkite į svetainę.',
    },
    REQUEST_EXPIRED: {
      title: 'Ši patikrinimo užklausa nebegalioja',
      help: 'Grįžkite į svetainę: joje bus parodytas naujas QR kodas.',
    },
    NETWORK_ERROR: { title: 'Paslauga nepasiekiama', help: 'Patikrinkite ryšį ir bandykite dar kartą.' },
    OTHER: { title: 'Kažkas nepavyko', help: 'Bandykite dar kartą. Jei tai kartojasi, pradėkite iš naujo svetainėje.' },
  },
  retry: 'Bandyti dar kartą',
  backToSite: 'Grįžti į svetainę',
  scopes: {
    isAdult: 'Jums yra 18 metų ar daugiau',
    isFrench: 'Turite Prancūzijos pilietybę',
    isEU: 'Turite ES šalies pilietybę',
    isMale: 'Jūsų lytis – vyriška',
    isFemale: 'Jūsų lytis – moteriška',
    isUnique: 'Šiai svetainei esate vienas ir tas pats asmuo (ji gauna identifikatorių, galiojantį tik joje)',
    revealNationality: 'Jūsų pilietybė (svetainė ją gauna)',
    revealBirthYear: 'Jūsų gimimo metai (svetainė juos gauna)',
  },
  methodsTitle: 'Kaip norite tai įrodyti?',
  useWalletHere: 'Naudoti piniginę šiame telefone',
  openWalletApp: 'Atidaryti piniginės programėlę',
  continueWith: (p) => `Tęsti naudojant ${p}`,
  opening: (p) => `Atidaroma ${p}…`,
  walletWaiting: 'Laukiama Jūsų piniginės…',
  notices: {
    refused: {
      title: 'Nepavyko patvirtinti šio prisijungimo',
      help: 'Svetainei nieko nebuvo perduota. Bandykite dar kartą arba pasirinkite kitą būdą.',
    },
    wallet_declined: {
      title: 'Jūsų piniginė nepateikė įrodymo',
      help: 'Svetainei nieko nebuvo perduota. Bandykite dar kartą arba pasirinkite kitą būdą.',
    },
    wallet_refused: {
      title: 'Nepavyko patikrinti Jūsų piniginės įrodymo',
      help: 'Svetainei nieko nebuvo perduota. Bandykite dar kartą arba pasirinkite kitą būdą.',
    },
  },
  endings: {
    approved: {
      title: 'Atlikta – galite grįžti prie kompiuterio',
      help: 'Svetainė tęs savaime. Jei pradėjote šiame telefone, tiesiog grįžkite į svetainę.',
    },
    failed: { title: 'Patikrinti nepavyko', help: 'Svetainėje bus parodyta, kad patikrinti nepavyko.' },
    cancelled: {
      title: 'Patikrinimas atšauktas',
      help: 'Nusprendėte nebendrinti savo duomenų. Svetainėje bus parodyta, kad patikrinimas atšauktas.',
    },
    claims_missing: {
      title: 'Jūsų tapatybės patvirtinimo paslauga nepateikė prašytų duomenų',
      help: 'Svetainėje bus parodyta, kad patikrinti nepavyko. Galite pradėti iš naujo svetainėje.',
    },
    provider_error: {
      title: 'Jūsų tapatybės patvirtinimo paslauga negalėjo užbaigti patikrinimo',
      help: 'Ji buvo nepasiekiama arba jos atsakymas buvo netinkamas. Pradėkite iš naujo svetainėje.',
    },
    ended: {
      title: 'Šis patikrinimas jau buvo pasibaigęs',
      help: 'Jis buvo baigtas arba nustojo galioti, kol jungėtės. Grįžkite į svetainę.',
    },
    link_expired: {
      title: 'Ši prisijungimo nuoroda nebegalioja arba jau panaudota',
      help: 'Grįžkite į svetainę ir pradėkite patikrinimą iš naujo.',
    },
  },
  demoAudience: 'Dizainerių demonstracinis puslapis',
};
