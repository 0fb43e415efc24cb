import type { PhoneCopy } from './index.ts';
import { plural } from './plural.ts';

/** Polish: sentences impersonal or formal ("Proszę…", "Państwo"), Polish quotation marks „…”. */
export const pl: PhoneCopy = {
  doneView: {
    title: 'Powrót z portfela',
    checking: 'Sprawdzanie…',
    shared: {
      title: 'Potwierdzenie przekazane',
      help: 'Proszę wrócić na stronę, która o nie prosiła: przejdzie dalej sama.',
    },
    ended: {
      title: 'Ta weryfikacja się zakończyła',
      help: 'Proszę wrócić na stronę, która o nią prosiła, aby zobaczyć jej wynik.',
    },
    neutral: {
      title: 'Nie ma tu nic do wyświetlenia',
      help: 'Ten link jest nieprawidłowy lub został już użyty. Proszę wrócić na poprzednią stronę.',
    },
  },
  title: 'Telefon testowy',
  pageTitle: 'Weryfikacja tożsamości',
  sandboxMark: 'Tryb testowy',
  sandboxNote:
    'Ta strona zastępuje aplikację mobilną. Żadna prawdziwa tożsamość nie jest sprawdzana: ' +
    'proszę wybrać osobę testową i zdecydować o wyniku.',
  loading: 'Otwieranie żądania weryfikacji…',
  askedBy: (audience) => `${audience} prosi o potwierdzenie:`,
  askedByBlind: 'Anonimowa strona prosi o potwierdzenie:',
  blindNote: (app) =>
    `Usługa weryfikacji nie wie, o którą stronę chodzi. Potwierdzenie jest wystawiane wyłącznie dla aplikacji „${app}”.`,
  minimalNote: 'Telefon przekazuje tylko te odpowiedzi i nic więcej o Państwu.',
  expiresIn: (text) => `Żądanie wygaśnie za ${text}`,
  minutesLeft: (n) =>
    plural('pl', n, {
      one: 'Żądanie wygaśnie za {n} minutę',
      few: 'Żądanie wygaśnie za {n} minuty',
      many: 'Żądanie wygaśnie za {n} minut',
      other: 'Żądanie wygaśnie za {n} minuty',
    }),
  outcomes: {
    approved: { title: 'Weryfikacja zatwierdzona', help: 'Można wrócić na stronę: przejdzie dalej sama.' },
    failed: { title: 'Weryfikacja nie powiodła się', help: 'Strona pokaże, że sprawdzenie się nie powiodło.' },
    cancelled: { title: 'Weryfikacja anulowana', help: 'Strona pokaże, że weryfikację anulowano.' },
  },
  problems: {
    MISSING_LINK: {
      title: 'Ten link jest niekompletny',
      help: 'Proszę ponownie zeskanować kod QR lub użyć na stronie linku „Otwórz na tym urządzeniu”.',
    },
    NOT_FOUND: {
      title: 'Ten link weryfikacyjny jest nieprawidłowy',
      help: 'Mógł zostać błędnie wpisany lub już nie istnieje. Proszę zacząć od nowa na stronie.',
    },
    ALREADY_FINISHED: {
      title: 'Ta weryfikacja została już zakończona',
      help: 'Nic więcej nie trzeba tu robić. Proszę wrócić na stronę.',
    },
    REQUEST_EXPIRED: {
      title: 'To żądanie weryfikacji wygasło',
      help: 'Proszę wrócić na stronę: wyświetli nowy kod QR do zeskanowania.',
    },
    NETWORK_ERROR: { title: 'Brak połączenia z usługą', help: 'Proszę sprawdzić połączenie i spróbować ponownie.' },
    OTHER: {
      title: 'Coś poszło nie tak',
      help: 'Proszę spróbować ponownie. Jeśli problem się powtarza, proszę zacząć od nowa na stronie.',
    },
  },
  retry: 'Spróbuj ponownie',
  backToSite: 'Wróć na stronę',
  scopes: {
    isAdult: 'Ukończone 18 lat',
    isFrench: 'Obywatelstwo francuskie',
    isEU: 'Obywatelstwo państwa członkowskiego UE',
    isMale: 'Płeć: mężczyzna',
    isFemale: 'Płeć: kobieta',
    isUnique: 'Jedna i ta sama osoba dla tej strony (otrzymuje identyfikator ważny tylko u niej)',
    revealNationality: 'Obywatelstwo (strona je otrzymuje)',
    revealBirthYear: 'Rok urodzenia (strona go otrzymuje)',
  },
  methodsTitle: 'Jak chcą Państwo to potwierdzić?',
  useWalletHere: 'Użyj portfela na tym telefonie',
  openWalletApp: 'Otwórz aplikację portfela',
  continueWith: (p) => `Kontynuuj przez: ${p}`,
  opening: (p) => `Otwieranie: ${p}…`,
  walletWaiting: 'Oczekiwanie na portfel…',
  notices: {
    refused: {
      title: 'Nie udało się potwierdzić tego logowania',
      help: 'Strona nic nie otrzymała. Proszę spróbować ponownie lub wybrać inny sposób.',
    },
    wallet_declined: {
      title: 'Portfel nie udostępnił potwierdzenia',
      help: 'Strona nic nie otrzymała. Proszę spróbować ponownie lub wybrać inny sposób.',
    },
    wallet_refused: {
      title: 'Nie udało się sprawdzić potwierdzenia z portfela',
      help: 'Strona nic nie otrzymała. Proszę spróbować ponownie lub wybrać inny sposób.',
    },
  },
  endings: {
    approved: {
      title: 'Gotowe — można wrócić do komputera',
      help: 'Strona przejdzie dalej sama. Jeśli weryfikacja zaczęła się na tym telefonie, wystarczy wrócić na stronę.',
    },
    failed: { title: 'Weryfikacja nie powiodła się', help: 'Strona pokaże, że sprawdzenie się nie powiodło.' },
    cancelled: {
      title: 'Weryfikacja anulowana',
      help: 'Zdecydowali się Państwo nie udostępniać danych. Strona pokaże, że weryfikację anulowano.',
    },
    claims_missing: {
      title: 'Dostawca tożsamości nie udostępnił wymaganych danych',
      help: 'Strona pokaże, że sprawdzenie się nie powiodło. Można zacząć od nowa na stronie.',
    },
    provider_error: {
      title: 'Dostawca tożsamości nie mógł dokończyć sprawdzenia',
      help: 'Nie udało się z nim połączyć lub jego odpowiedź była nieprawidłowa. Proszę zacząć od nowa na stronie.',
    },
    ended: {
      title: 'Ta weryfikacja już się zakończyła',
      help: 'Została zakończona lub wygasła w trakcie logowania. Proszę wrócić na stronę.',
    },
    link_expired: {
      title: 'Ten link logowania wygasł lub został już użyty',
      help: 'Proszę wrócić na stronę i ponownie rozpocząć weryfikację.',
    },
  },
  demoAudience: 'Strona demonstracyjna projektantów',
};
