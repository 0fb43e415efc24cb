import type { Copy } from './fr.ts';

/**
 * Latvian copy: formal "Jūs" (capitalised, as a Latvian service writes to its customers), buttons
 * in the infinitive ("Mēģināt vēlreiz"); the Commission's terms ("vecuma verificēšanas lietotne",
 * "ES digitālās identitātes maks"); Latvian quotation marks „…“.
 * The countdown reads "Kods derīgs vēl 4:59": the time needs no case ending.
 */
export const lv: Copy = {
  brand: 'Vecuma pārbaude',
  testMode: 'Testa režīms',
  creatingTitle: 'Notiek sagatavošana',
  creatingHelp: 'Tas aizņems tikai dažas sekundes.',
  waitingTitle: 'Noskenējiet šo QR kodu ar tālruni',
  expiresIn:
    'one=Kods derīgs vēl {n}\u00a0minūti|zero=Kods derīgs vēl {n}\u00a0minūšu|Kods derīgs vēl {n}\u00a0minūtes',
  qrLabel: 'QR kods, kas jānoskenē ar tālruni, lai apstiprinātu savu vecumu',
  openHere: 'Atvērt šajā ierīcē',
  mobileTitle: 'Apstipriniet savu vecumu',
  mobileHelp: 'Lietotnē tas aizņems tikai dažas sekundes.',
  openApp: 'Atvērt lietotni',
  showQr: 'Tā vietā rādīt QR kodu',
  scannedTitle: 'Notiek pārbaude',
  scannedHelp: 'Turpiniet tālrunī.',
  completedTitle: 'Vecums apstiprināts',
  completedHelp: 'Paldies, viss ir kārtībā.',
  confirmingTitle: 'Notiek apstiprināšana',
  confirmingHelp: 'Vēl tikai dažas sekundes…',
  redirectingTitle: 'Vecums apstiprināts',
  redirectingHelp: 'Novirzām Jūs atpakaļ…',
  failedTitle: 'Pārbaude neizdevās',
  failedHelp: 'Varat uzreiz mēģināt vēlreiz.',
  cancelledTitle: 'Pārbaude atcelta',
  cancelledHelp: 'Varat sākt no jauna, kad vien vēlaties.',
  expiredTitle: 'QR koda derīgums beidzies',
  expiredHelp: 'Jauns kods parādīsies automātiski.',
  errorTitle: 'Pārbaude nav pieejama',
  errorHelp: 'Pakalpojums pašlaik neatbild.',
  configHelp: 'Šīs vietnes vecuma pārbaude nav pareizi iestatīta.',
  timeoutTitle: 'Neizdevās apstiprināt',
  timeoutHelp: 'Vietne nevarēja apstiprināt Jūsu pārbaudi.',
  retry: 'Mēģināt vēlreiz',
  openWalletApp: 'Atvērt vecuma verificēšanas lietotni',
  openWallet: 'Atvērt maka lietotni',
  useWalletHere: 'Izmantot maku šajā ierīcē',
  walletFailedTitle: 'Maks nekopīgoja pierādījumu',
  walletFailedHelp: 'Mēģiniet vēlreiz vai noskenējiet QR kodu.',
  backToQr: 'Atpakaļ pie QR koda',
  walletTitle: 'Noskenējiet ar ES digitālās identitātes maku',
};
