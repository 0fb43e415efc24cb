import type { PhoneCopy } from './index.ts';
import { plural } from './plural.ts';

/** Slovak: vykanie, Slovak quotation marks. */
export const sk: PhoneCopy = {
  doneView: {
    title: 'Späť z peňaženky',
    checking: 'Overuje sa…',
    shared: { title: 'Doklad bol odovzdaný', help: 'Vráťte sa na stránku, ktorá oň požiadala: pokračuje sama.' },
    ended: {
      title: 'Toto overenie sa skončilo',
      help: 'Vráťte sa na stránku, ktorá oň požiadala, a uvidíte, ako dopadlo.',
    },
    neutral: {
      title: 'Nie je tu nič na zobrazenie',
      help: 'Tento odkaz nie je platný alebo už bol použitý. Vráťte sa na stránku, z ktorej ste prišli.',
    },
  },
  title: 'Testovací telefón',
  pageTitle: 'Overenie totožnosti',
  sandboxMark: 'Testovací režim',
  sandboxNote:
    'Táto stránka zastupuje mobilnú aplikáciu. Žiadna skutočná totožnosť sa neoveruje: ' +
    'vyberte testovaciu osobu a rozhodnite o výsledku.',
  loading: 'Otvára sa žiadosť o overenie…',
  askedBy: (audience) => `${audience} žiada, aby ste preukázali:`,
  askedByBlind: 'Anonymná stránka žiada, aby ste preukázali:',
  blindNote: (app) => `Overovacia služba sa nedozvie, o akú stránku ide. Doklad sa vydá len pre aplikáciu „${app}“.`,
  minimalNote: 'Telefón opustia len tieto odpovede, nič iné o vás.',
  expiresIn: (text) => `Žiadosť je platná ešte ${text}`,
  minutesLeft: (n) =>
    plural('sk', n, {
      one: 'Žiadosť je platná ešte {n} minútu',
      few: 'Žiadosť je platná ešte {n} minúty',
      many: 'Žiadosť je platná ešte {n} minúty',
      other: 'Žiadosť je platná ešte {n} minút',
    }),
  outcomes: {
    approved: { title: 'Overenie schválené', help: 'Môžete sa vrátiť na stránku: pokračuje sama.' },
    failed: { title: 'Overenie sa nepodarilo', help: 'Stránka zobrazí, že overenie neuspelo.' },
    cancelled: { title: 'Overenie zrušené', help: 'Stránka zobrazí, že ste overenie zrušili.' },
  },
  problems: {
    MISSING_LINK: {
      title: 'Tento odkaz je neúplný',
      help: 'Naskenujte QR kód znova alebo použite na stránke odkaz „Otvoriť v tomto zariadení“.',
    },
    NOT_FOUND: {
      title: 'Tento overovací odkaz nie je platný',
      help: 'Možno je nesprávne prepísaný alebo už neexistuje. Začnite znova na stránke.',
    },
    ALREADY_FINISHED: {
      title: 'Toto overenie je už dokončené',
      help: 'Tu už nemusíte nič robiť. Vráťte sa na stránku.',
    },
    REQUEST_EXPIRED: {
      title: 'Platnosť tejto žiadosti o overenie vypršala',
      help: 'Vráťte sa na stránku: zobrazí sa tam nový QR kód na naskenovanie.',
    },
    NETWORK_ERROR: { title: 'Služba nie je dostupná', help: 'Skontrolujte pripojenie a skúste to znova.' },
    OTHER: { title: 'Niečo sa pokazilo', help: 'Skúste to znova. Ak sa to bude opakovať, začnite znova na stránke.' },
  },
  retry: 'Skúsiť znova',
  backToSite: 'Späť na stránku',
  scopes: {
    isAdult: 'Máte 18 rokov alebo viac',
    isFrench: 'Máte francúzske štátne občianstvo',
    isEU: 'Máte štátne občianstvo niektorej krajiny EÚ',
    isMale: 'Vaše pohlavie je mužské',
    isFemale: 'Vaše pohlavie je ženské',
    isUnique: 'Pre túto stránku ste jedna a tá istá osoba (dostane identifikátor, ktorý platí len u nej)',
    revealNationality: 'Vaše štátne občianstvo (stránka ho dostane)',
    revealBirthYear: 'Váš rok narodenia (stránka ho dostane)',
  },
  methodsTitle: 'Ako to chcete preukázať?',
  useWalletHere: 'Použiť peňaženku v tomto telefóne',
  openWalletApp: 'Otvoriť peňaženku',
  continueWith: (p) => `Pokračovať cez ${p}`,
  opening: (p) => `Otvára sa ${p}…`,
  walletWaiting: 'Čakáme na vašu peňaženku…',
  notices: {
    refused: {
      title: 'Toto prihlásenie sa nám nepodarilo potvrdiť',
      help: 'Stránke sa nič neodovzdalo. Skúste to znova alebo zvoľte iný spôsob.',
    },
    wallet_declined: {
      title: 'Vaša peňaženka neposkytla žiadny doklad',
      help: 'Stránke sa nič neodovzdalo. Skúste to znova alebo zvoľte iný spôsob.',
    },
    wallet_refused: {
      title: 'Doklad z vašej peňaženky sa nepodarilo overiť',
      help: 'Stránke sa nič neodovzdalo. Skúste to znova alebo zvoľte iný spôsob.',
    },
  },
  endings: {
    approved: {
      title: 'Hotovo – môžete sa vrátiť k počítaču',
      help: 'Stránka pokračuje sama. Ak ste začali v tomto telefóne, stačí sa vrátiť na stránku.',
    },
    failed: { title: 'Overenie sa nepodarilo', help: 'Stránka zobrazí, že overenie neuspelo.' },
    cancelled: {
      title: 'Overenie zrušené',
      help: 'Rozhodli ste sa nezdieľať svoje údaje. Stránka zobrazí, že overenie bolo zrušené.',
    },
    claims_missing: {
      title: 'Váš poskytovateľ identity neposkytol požadované údaje',
      help: 'Stránka zobrazí, že overenie neuspelo. Môžete začať znova na stránke.',
    },
    provider_error: {
      title: 'Váš poskytovateľ identity nemohol overenie dokončiť',
      help: 'Nebol dostupný alebo jeho odpoveď nebola platná. Začnite znova na stránke.',
    },
    ended: {
      title: 'Toto overenie sa už skončilo',
      help: 'Počas vášho prihlasovania sa dokončilo alebo vypršalo. Vráťte sa na stránku.',
    },
    link_expired: {
      title: 'Tento prihlasovací odkaz vypršal alebo už bol použitý',
      help: 'Vráťte sa na stránku a začnite overenie znova.',
    },
  },
  demoAudience: 'Ukážková stránka pre dizajnérov',
};
