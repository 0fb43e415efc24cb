import type { PhoneCopy } from './index.ts';
import { plural } from './plural.ts';

/** Hungarian: the formal "Ön" form, Hungarian quotation marks „…”. */
export const hu: PhoneCopy = {
  doneView: {
    title: 'Vissza a tárcából',
    checking: 'Ellenőrzés…',
    shared: { title: 'Igazolás megosztva', help: 'Térjen vissza a webhelyre, amely kérte: magától folytatódik.' },
    ended: {
      title: 'Ez az ellenőrzés véget ért',
      help: 'Térjen vissza a webhelyre, amely kérte, és nézze meg, hogyan végződött.',
    },
    neutral: {
      title: 'Itt nincs mit megjeleníteni',
      help: 'Ez a hivatkozás érvénytelen, vagy már felhasználták. Térjen vissza arra az oldalra, ahonnan érkezett.',
    },
  },
  title: 'Teszttelefon',
  pageTitle: 'Személyazonosság ellenőrzése',
  sandboxMark: 'Tesztüzemmód',
  sandboxNote:
    'Ez az oldal a mobilalkalmazást helyettesíti. Valódi személyazonosságot nem ellenőrzünk: ' +
    'válasszon egy tesztszemélyt, és döntse el az eredményt.',
  loading: 'Az ellenőrzési kérés megnyitása…',
  askedBy: (audience) => `${audience} a következők igazolását kéri Öntől:`,
  askedByBlind: 'Egy névtelen webhely a következők igazolását kéri Öntől:',
  blindNote: (app) =>
    `Az ellenőrző szolgáltatás nem tudja, melyik webhelyről van szó. Az igazolást csak a(z) „${app}” alkalmazás kapja meg.`,
  minimalNote: 'Csak ezek a válaszok hagyják el a telefont, más nem derül ki Önről.',
  expiresIn: (text) => `A kérés ${text} múlva lejár`,
  // Hungarian counts with the singular (`5 perc`): one sentence for both categories
  minutesLeft: (n) => plural('hu', n, { one: 'A kérés {n} perc múlva lejár', other: 'A kérés {n} perc múlva lejár' }),
  outcomes: {
    approved: { title: 'Ellenőrzés jóváhagyva', help: 'Visszatérhet a webhelyre: magától folytatódik.' },
    failed: { title: 'Az ellenőrzés sikertelen', help: 'A webhely jelzi, hogy az ellenőrzés nem sikerült.' },
    cancelled: { title: 'Ellenőrzés megszakítva', help: 'A webhely jelzi, hogy Ön megszakította.' },
  },
  problems: {
    MISSING_LINK: {
      title: 'A hivatkozás hiányos',
      help: 'Olvassa be újra a QR-kódot, vagy használja a webhely „Megnyitás ezen az eszközön” hivatkozását.',
    },
    NOT_FOUND: {
      title: 'Az ellenőrzési hivatkozás érvénytelen',
      help: 'Lehet, hogy elírták, vagy már nem létezik. Kezdje újra a webhelyen.',
    },
    ALREADY_FINISHED: {
      title: 'Ez az ellenőrzés már befejeződött',
      help: 'Itt nincs több teendő. Térjen vissza a webhelyre.',
    },
    REQUEST_EXPIRED: {
      title: 'Az ellenőrzési kérés lejárt',
      help: 'Térjen vissza a webhelyre: ott új QR-kód jelenik meg.',
    },
    NETWORK_ERROR: {
      title: 'A szolgáltatás nem érhető el',
      help: 'Ellenőrizze a kapcsolatot, és próbálja újra.',
    },
    OTHER: {
      title: 'Hiba történt',
      help: 'Próbálja újra. Ha a hiba ismétlődik, kezdje újra a webhelyen.',
    },
  },
  retry: 'Újrapróbálkozás',
  backToSite: 'Vissza a webhelyre',
  scopes: {
    isAdult: 'Ön betöltötte a 18. életévét',
    isFrench: 'Ön francia állampolgár',
    isEU: 'Ön valamely uniós tagállam állampolgára',
    isMale: 'Az Ön neme: férfi',
    isFemale: 'Az Ön neme: nő',
    isUnique: 'Ön a webhely számára egyetlen személy (olyan azonosítót kap, amely csak ott érvényes)',
    revealNationality: 'Az Ön állampolgársága (a webhely megkapja)',
    revealBirthYear: 'Az Ön születési éve (a webhely megkapja)',
  },
  methodsTitle: 'Hogyan szeretné igazolni?',
  useWalletHere: 'Tárca használata ezen a telefonon',
  openWalletApp: 'A tárcaalkalmazás megnyitása',
  continueWith: (p) => `Folytatás a következővel: ${p}`,
  opening: (p) => `Megnyitás: ${p}…`,
  walletWaiting: 'Várakozás a tárcára…',
  notices: {
    refused: {
      title: 'Nem sikerült megerősíteni a bejelentkezést',
      help: 'A webhely semmit sem kapott meg. Próbálja újra, vagy válasszon más módot.',
    },
    wallet_declined: {
      title: 'A tárca nem osztott meg igazolást',
      help: 'A webhely semmit sem kapott meg. Próbálja újra, vagy válasszon más módot.',
    },
    wallet_refused: {
      title: 'A tárca igazolását nem sikerült ellenőrizni',
      help: 'A webhely semmit sem kapott meg. Próbálja újra, vagy válasszon más módot.',
    },
  },
  endings: {
    approved: {
      title: 'Kész – visszatérhet a számítógépéhez',
      help: 'A webhely magától folytatódik. Ha ezen a telefonon kezdte, egyszerűen térjen vissza a webhelyre.',
    },
    failed: { title: 'Az ellenőrzés sikertelen', help: 'A webhely jelzi, hogy az ellenőrzés nem sikerült.' },
    cancelled: {
      title: 'Ellenőrzés megszakítva',
      help: 'Ön úgy döntött, hogy nem osztja meg az adatait. A webhely jelzi, hogy az ellenőrzés megszakadt.',
    },
    claims_missing: {
      title: 'A személyazonosság-szolgáltató nem osztotta meg a kért adatokat',
      help: 'A webhely jelzi, hogy az ellenőrzés nem sikerült. Újrakezdheti a webhelyen.',
    },
    provider_error: {
      title: 'A személyazonosság-szolgáltató nem tudta befejezni az ellenőrzést',
      help: 'Nem volt elérhető, vagy a válasza érvénytelen volt. Kezdje újra a webhelyen.',
    },
    ended: {
      title: 'Ez az ellenőrzés már véget ért',
      help: 'Befejeződött vagy lejárt, amíg Ön bejelentkezett. Térjen vissza a webhelyre.',
    },
    link_expired: {
      title: 'A bejelentkezési hivatkozás lejárt, vagy már felhasználták',
      help: 'Térjen vissza a webhelyre, és kezdje újra az ellenőrzést.',
    },
  },
  demoAudience: 'A tervezők bemutatóoldala',
};
