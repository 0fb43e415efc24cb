import type { PhoneCopy } from './index.ts';
import { plural } from './plural.ts';

/** Czech: vykání, Czech quotation marks. */
export const cs: PhoneCopy = {
  doneView: {
    title: 'Zpět z peněženky',
    checking: 'Ověřuje se…',
    shared: { title: 'Doklad byl předán', help: 'Vraťte se na web, který o něj požádal: pokračuje sám.' },
    ended: {
      title: 'Toto ověření skončilo',
      help: 'Vraťte se na web, který o ověření požádal, a uvidíte, jak dopadlo.',
    },
    neutral: {
      title: 'Není tu nic k zobrazení',
      help: 'Tento odkaz není platný, nebo už byl použit. Vraťte se na stránku, ze které jste přišli.',
    },
  },
  title: 'Testovací telefon',
  pageTitle: 'Ověření totožnosti',
  sandboxMark: 'Testovací režim',
  sandboxNote:
    'Tato stránka zastupuje mobilní aplikaci. Žádná skutečná totožnost se neověřuje: ' +
    'vyberte testovací osobu a rozhodněte o výsledku.',
  loading: 'Otevírá se žádost o ověření…',
  askedBy: (audience) => `${audience} žádá, abyste prokázali:`,
  askedByBlind: 'Anonymní web žádá, abyste prokázali:',
  blindNote: (app) => `Ověřovací služba se nedozví, o jaký web jde. Doklad se vystaví jen pro aplikaci „${app}“.`,
  minimalNote: 'Telefon opustí jen tyto odpovědi, nic dalšího o vás.',
  expiresIn: (text) => `Platnost žádosti vyprší za ${text}`,
  minutesLeft: (n) =>
    plural('cs', n, {
      one: 'Platnost žádosti vyprší za {n} minutu',
      few: 'Platnost žádosti vyprší za {n} minuty',
      many: 'Platnost žádosti vyprší za {n} minuty',
      other: 'Platnost žádosti vyprší za {n} minut',
    }),
  outcomes: {
    approved: { title: 'Ověření schváleno', help: 'Můžete se vrátit na web: pokračuje sám.' },
    failed: { title: 'Ověření se nezdařilo', help: 'Web zobrazí, že ověření neuspělo.' },
    cancelled: { title: 'Ověření zrušeno', help: 'Web zobrazí, že jste ověření zrušili.' },
  },
  problems: {
    MISSING_LINK: {
      title: 'Tento odkaz je neúplný',
      help: 'Naskenujte QR kód znovu, nebo použijte na webu odkaz „Otevřít na tomto zařízení“.',
    },
    NOT_FOUND: {
      title: 'Tento ověřovací odkaz není platný',
      help: 'Možná je chybně opsaný, nebo už neexistuje. Začněte znovu na webu.',
    },
    ALREADY_FINISHED: {
      title: 'Toto ověření je už dokončeno',
      help: 'Tady už nic dalšího dělat nemusíte. Vraťte se na web.',
    },
    REQUEST_EXPIRED: {
      title: 'Platnost této žádosti o ověření vypršela',
      help: 'Vraťte se na web: zobrazí se tam nový QR kód k naskenování.',
    },
    NETWORK_ERROR: { title: 'Služba není dostupná', help: 'Zkontrolujte připojení a zkuste to znovu.' },
    OTHER: { title: 'Něco se pokazilo', help: 'Zkuste to znovu. Pokud se to bude opakovat, začněte znovu na webu.' },
  },
  retry: 'Zkusit znovu',
  backToSite: 'Zpět na web',
  scopes: {
    isAdult: 'Je vám 18 let nebo více',
    isFrench: 'Máte francouzské státní občanství',
    isEU: 'Máte státní občanství některé země EU',
    isMale: 'Vaše pohlaví je mužské',
    isFemale: 'Vaše pohlaví je ženské',
    isUnique: 'Pro tento web jste jedna a tatáž osoba (web dostane identifikátor, který platí jen u něj)',
    revealNationality: 'Vaše státní občanství (web ho obdrží)',
    revealBirthYear: 'Váš rok narození (web ho obdrží)',
  },
  methodsTitle: 'Jak to chcete prokázat?',
  useWalletHere: 'Použít peněženku v tomto telefonu',
  openWalletApp: 'Otevřít peněženku',
  continueWith: (p) => `Pokračovat přes ${p}`,
  opening: (p) => `Otevírá se ${p}…`,
  walletWaiting: 'Čekáme na vaši peněženku…',
  notices: {
    refused: {
      title: 'Toto přihlášení se nám nepodařilo potvrdit',
      help: 'Webu se nic nepředalo. Zkuste to znovu, nebo zvolte jiný způsob.',
    },
    wallet_declined: {
      title: 'Vaše peněženka neposkytla žádný doklad',
      help: 'Webu se nic nepředalo. Zkuste to znovu, nebo zvolte jiný způsob.',
    },
    wallet_refused: {
      title: 'Doklad z vaší peněženky se nepodařilo ověřit',
      help: 'Webu se nic nepředalo. Zkuste to znovu, nebo zvolte jiný způsob.',
    },
  },
  endings: {
    approved: {
      title: 'Hotovo – můžete se vrátit k počítači',
      help: 'Web pokračuje sám. Pokud jste začali v tomto telefonu, stačí se vrátit na web.',
    },
    failed: { title: 'Ověření se nezdařilo', help: 'Web zobrazí, že ověření neuspělo.' },
    cancelled: {
      title: 'Ověření zrušeno',
      help: 'Rozhodli jste se své údaje nesdílet. Web zobrazí, že ověření bylo zrušeno.',
    },
    claims_missing: {
      title: 'Váš poskytovatel identity nesdílel požadované údaje',
      help: 'Web zobrazí, že ověření neuspělo. Můžete začít znovu na webu.',
    },
    provider_error: {
      title: 'Váš poskytovatel identity nemohl ověření dokončit',
      help: 'Nebyl dostupný, nebo jeho odpověď nebyla platná. Začněte znovu na webu.',
    },
    ended: {
      title: 'Toto ověření už skončilo',
      help: 'Během vašeho přihlašování bylo dokončeno, nebo vypršelo. Vraťte se na web.',
    },
    link_expired: {
      title: 'Tento přihlašovací odkaz vypršel, nebo už byl použit',
      help: 'Vraťte se na web a začněte ověření znovu.',
    },
  },
  demoAudience: 'Ukázková stránka pro designéry',
};
