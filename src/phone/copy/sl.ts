import type { PhoneCopy } from './index.ts';
import { plural } from './plural.ts';

/** Slovenian: vikanje, Slovenian quotation marks. */
export const sl: PhoneCopy = {
  doneView: {
    title: 'Nazaj iz denarnice',
    checking: 'Preverjanje…',
    shared: {
      title: 'Dokazilo je posredovano',
      help: 'Vrnite se na spletno mesto, ki ga je zahtevalo: nadaljevalo bo samo.',
    },
    ended: {
      title: 'To preverjanje je končano',
      help: 'Vrnite se na spletno mesto, ki ga je zahtevalo, in si oglejte, kako se je končalo.',
    },
    neutral: {
      title: 'Tu ni ničesar za prikaz',
      help: 'Ta povezava ni veljavna ali je bila že uporabljena. Vrnite se na stran, s katere ste prišli.',
    },
  },
  title: 'Preizkusni telefon',
  pageTitle: 'Preverjanje identitete',
  sandboxMark: 'Preizkusni način',
  sandboxNote:
    'Ta stran nadomešča mobilno aplikacijo. Nobena resnična identiteta se ne preverja: ' +
    'izberite preizkusno osebo in odločite o izidu.',
  loading: 'Odpiranje zahteve za preverjanje…',
  askedBy: (audience) => `${audience} vas prosi, da dokažete:`,
  askedByBlind: 'Anonimno spletno mesto vas prosi, da dokažete:',
  blindNote: (app) =>
    `Storitev preverjanja ne izve, za katero spletno mesto gre. Dokazilo se izda samo za aplikacijo „${app}“.`,
  minimalNote: 'Telefon zapustijo le navedeni odgovori, nič drugega o vas.',
  expiresIn: (text) => `Zahteva velja še ${text}`,
  minutesLeft: (n) =>
    plural('sl', n, {
      one: 'Zahteva velja še {n} minuto',
      two: 'Zahteva velja še {n} minuti',
      few: 'Zahteva velja še {n} minute',
      other: 'Zahteva velja še {n} minut',
    }),
  outcomes: {
    approved: { title: 'Preverjanje odobreno', help: 'Vrnete se lahko na spletno mesto: nadaljevalo bo samo.' },
    failed: { title: 'Preverjanje ni uspelo', help: 'Spletno mesto prikaže, da preverjanje ni uspelo.' },
    cancelled: { title: 'Preverjanje preklicano', help: 'Spletno mesto prikaže, da ste preverjanje preklicali.' },
  },
  problems: {
    MISSING_LINK: {
      title: 'Ta povezava je nepopolna',
      help: 'Znova skenirajte kodo QR ali na spletnem mestu uporabite povezavo „Odprite v tej napravi“.',
    },
    NOT_FOUND: {
      title: 'Ta povezava za preverjanje ni veljavna',
      help: 'Morda je napačno prepisana ali ne obstaja več. Začnite znova na spletnem mestu.',
    },
    ALREADY_FINISHED: {
      title: 'To preverjanje je že končano',
      help: 'Tu vam ni treba storiti ničesar več. Vrnite se na spletno mesto.',
    },
    REQUEST_EXPIRED: {
      title: 'Ta zahteva za preverjanje je potekla',
      help: 'Vrnite se na spletno mesto: tam bo prikazana nova koda QR za skeniranje.',
    },
    NETWORK_ERROR: { title: 'Storitev ni dosegljiva', help: 'Preverite povezavo in poskusite znova.' },
    OTHER: {
      title: 'Prišlo je do napake',
      help: 'Poskusite znova. Če se napaka ponavlja, začnite znova na spletnem mestu.',
    },
  },
  retry: 'Poskusite znova',
  backToSite: 'Nazaj na spletno mesto',
  scopes: {
    isAdult: 'Stari ste 18 let ali več',
    isFrench: 'Imate francosko državljanstvo',
    isEU: 'Imate državljanstvo ene od držav EU',
    isMale: 'Vaš spol je moški',
    isFemale: 'Vaš spol je ženski',
    isUnique: 'Za to spletno mesto ste ena in ista oseba (prejme identifikator, ki velja samo tam)',
    revealNationality: 'Vaše državljanstvo (spletno mesto ga prejme)',
    revealBirthYear: 'Vaše leto rojstva (spletno mesto ga prejme)',
  },
  methodsTitle: 'Kako želite to dokazati?',
  useWalletHere: 'Uporabite denarnico v tem telefonu',
  openWalletApp: 'Odprite svojo denarnico',
  continueWith: (p) => `Nadaljujte prek storitve ${p}`,
  opening: (p) => `Odpiranje storitve ${p}…`,
  walletWaiting: 'Čakanje na vašo denarnico…',
  notices: {
    refused: {
      title: 'Prijave nismo mogli potrditi',
      help: 'Spletnemu mestu ni bilo posredovano nič. Poskusite znova ali izberite drug način.',
    },
    wallet_declined: {
      title: 'Vaša denarnica ni posredovala dokazila',
      help: 'Spletnemu mestu ni bilo posredovano nič. Poskusite znova ali izberite drug način.',
    },
    wallet_refused: {
      title: 'Dokazila iz vaše denarnice ni bilo mogoče preveriti',
      help: 'Spletnemu mestu ni bilo posredovano nič. Poskusite znova ali izberite drug način.',
    },
  },
  endings: {
    approved: {
      title: 'Končano – vrnete se lahko k računalniku',
      help: 'Spletno mesto nadaljuje samo. Če ste začeli v tem telefonu, se preprosto vrnite na spletno mesto.',
    },
    failed: { title: 'Preverjanje ni uspelo', help: 'Spletno mesto prikaže, da preverjanje ni uspelo.' },
    cancelled: {
      title: 'Preverjanje preklicano',
      help: 'Odločili ste se, da svojih podatkov ne delite. Spletno mesto prikaže, da je bilo preverjanje preklicano.',
    },
    claims_missing: {
      title: 'Vaš ponudnik identitete ni posredoval zahtevanih podatkov',
      help: 'Spletno mesto prikaže, da preverjanje ni uspelo. Znova lahko začnete na spletnem mestu.',
    },
    provider_error: {
      title: 'Vaš ponudnik identitete ni mogel dokončati preverjanja',
      help: 'Ni bil dosegljiv ali njegov odgovor ni bil veljaven. Začnite znova na spletnem mestu.',
    },
    ended: {
      title: 'To preverjanje je bilo že končano',
      help: 'Končalo se je ali poteklo, medtem ko ste se prijavljali. Vrnite se na spletno mesto.',
    },
    link_expired: {
      title: 'Ta povezava za prijavo je potekla ali je bila že uporabljena',
      help: 'Vrnite se na spletno mesto in znova začnite preverjanje.',
    },
  },
  demoAudience: 'Predstavitvena stran za oblikovalce',
};
