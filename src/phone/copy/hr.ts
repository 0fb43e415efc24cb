import type { PhoneCopy } from './index.ts';
import { plural } from './plural.ts';

/** Croatian: the polite plural, Croatian quotation marks. */
export const hr: PhoneCopy = {
  doneView: {
    title: 'Povratak iz lisnice',
    checking: 'Provjera u tijeku…',
    shared: { title: 'Dokaz je podijeljen', help: 'Vratite se na stranicu koja ga je zatražila: ona nastavlja sama.' },
    ended: {
      title: 'Ova je provjera završena',
      help: 'Vratite se na stranicu koja ju je zatražila da vidite kako je završila.',
    },
    neutral: {
      title: 'Ovdje nema ništa za prikaz',
      help: 'Ova poveznica nije valjana ili je već upotrijebljena. Vratite se na stranicu s koje ste došli.',
    },
  },
  title: 'Testni telefon',
  pageTitle: 'Provjera identiteta',
  sandboxMark: 'Testni način',
  sandboxNote:
    'Ova stranica zamjenjuje mobilnu aplikaciju. Ne provjerava se nikakav stvarni identitet: ' +
    'odaberite testnu osobu i odlučite o ishodu.',
  loading: 'Otvaranje zahtjeva za provjeru…',
  askedBy: (audience) => `${audience} traži da dokažete sljedeće:`,
  askedByBlind: 'Anonimna stranica traži da dokažete sljedeće:',
  blindNote: (app) =>
    `Usluga provjere ne saznaje o kojoj je stranici riječ. Dokaz se izdaje samo za aplikaciju „${app}”.`,
  minimalNote: 'Telefon napuštaju samo ovi odgovori, ništa drugo o vama.',
  expiresIn: (text) => `Zahtjev vrijedi još ${text}`,
  minutesLeft: (n) =>
    plural('hr', n, {
      one: 'Zahtjev vrijedi još {n} minutu',
      few: 'Zahtjev vrijedi još {n} minute',
      other: 'Zahtjev vrijedi još {n} minuta',
    }),
  outcomes: {
    approved: { title: 'Provjera odobrena', help: 'Možete se vratiti na stranicu: ona nastavlja sama.' },
    failed: { title: 'Provjera nije uspjela', help: 'Stranica prikazuje da provjera nije uspjela.' },
    cancelled: { title: 'Provjera otkazana', help: 'Stranica prikazuje da ste odustali.' },
  },
  problems: {
    MISSING_LINK: {
      title: 'Ova poveznica nije potpuna',
      help: 'Ponovno skenirajte QR kôd ili na stranici upotrijebite poveznicu „Otvorite na ovom uređaju”.',
    },
    NOT_FOUND: {
      title: 'Ova poveznica za provjeru nije valjana',
      help: 'Možda je pogrešno prepisana ili više ne postoji. Započnite ponovno na stranici.',
    },
    ALREADY_FINISHED: {
      title: 'Ova je provjera već završena',
      help: 'Ovdje više nemate što učiniti. Vratite se na stranicu.',
    },
    REQUEST_EXPIRED: {
      title: 'Ovaj je zahtjev za provjeru istekao',
      help: 'Vratite se na stranicu: ondje će se prikazati novi QR kôd za skeniranje.',
    },
    NETWORK_ERROR: { title: 'Usluga nije dostupna', help: 'Provjerite vezu i pokušajte ponovno.' },
    OTHER: {
      title: 'Nešto je pošlo po zlu',
      help: 'Pokušajte ponovno. Ako se to ponovi, započnite ispočetka na stranici.',
    },
  },
  retry: 'Pokušajte ponovno',
  backToSite: 'Natrag na stranicu',
  scopes: {
    isAdult: 'Imate 18 ili više godina',
    isFrench: 'Imate francusko državljanstvo',
    isEU: 'Imate državljanstvo jedne od zemalja EU-a',
    isMale: 'Vaš je spol muški',
    isFemale: 'Vaš je spol ženski',
    isUnique: 'Za ovu ste stranicu uvijek ista osoba (ona dobiva identifikator koji vrijedi samo ondje)',
    revealNationality: 'Vaše državljanstvo (stranica ga dobiva)',
    revealBirthYear: 'Vaša godina rođenja (stranica je dobiva)',
  },
  methodsTitle: 'Kako to želite dokazati?',
  useWalletHere: 'Upotrijebite lisnicu na ovom telefonu',
  openWalletApp: 'Otvorite svoju lisnicu',
  continueWith: (p) => `Nastavite putem usluge ${p}`,
  opening: (p) => `Otvaranje usluge ${p}…`,
  walletWaiting: 'Čeka se vaša lisnica…',
  notices: {
    refused: {
      title: 'Nismo mogli potvrditi ovu prijavu',
      help: 'Stranici nije ništa poslano. Pokušajte ponovno ili odaberite drugi način.',
    },
    wallet_declined: {
      title: 'Vaša lisnica nije podijelila dokaz',
      help: 'Stranici nije ništa poslano. Pokušajte ponovno ili odaberite drugi način.',
    },
    wallet_refused: {
      title: 'Dokaz iz vaše lisnice nije moguće provjeriti',
      help: 'Stranici nije ništa poslano. Pokušajte ponovno ili odaberite drugi način.',
    },
  },
  endings: {
    approved: {
      title: 'Gotovo – možete se vratiti na računalo',
      help: 'Stranica nastavlja sama. Ako ste počeli na ovom telefonu, jednostavno se vratite na stranicu.',
    },
    failed: { title: 'Provjera nije uspjela', help: 'Stranica prikazuje da provjera nije uspjela.' },
    cancelled: {
      title: 'Provjera otkazana',
      help: 'Odlučili ste ne dijeliti svoje podatke. Stranica prikazuje da je provjera otkazana.',
    },
    claims_missing: {
      title: 'Vaš pružatelj identiteta nije podijelio tražene podatke',
      help: 'Stranica prikazuje da provjera nije uspjela. Možete započeti ispočetka na stranici.',
    },
    provider_error: {
      title: 'Vaš pružatelj identiteta nije mogao dovršiti provjeru',
      help: 'Nije bio dostupan ili njegov odgovor nije bio valjan. Započnite ponovno na stranici.',
    },
    ended: {
      title: 'Ova je provjera već bila završena',
      help: 'Završena je ili je istekla dok ste se prijavljivali. Vratite se na stranicu.',
    },
    link_expired: {
      title: 'Ova je poveznica za prijavu istekla ili je već upotrijebljena',
      help: 'Vratite se na stranicu i ponovno pokrenite provjeru.',
    },
  },
  demoAudience: 'Pokazna stranica za dizajnere',
};
