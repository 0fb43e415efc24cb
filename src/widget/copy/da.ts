import type { Copy } from './fr.ts';

/**
 * Danish copy: "du", as Danish shops and public self-service write it; the EU's terms
 * ("aldersverifikation", "EU's digitale identitetstegnebog"); Danish quotation marks »…«. A soft
 * hyphen lets the long compound break in the compact card's narrow column.
 */
export const da: Copy = {
  brand: 'Aldersverifikation',
  testMode: 'Testtilstand',
  creatingTitle: 'Gør klar',
  creatingHelp: 'Det tager kun et par sekunder.',
  waitingTitle: 'Scan QR-koden med din telefon',
  expiresIn: 'one=Koden udløber om {n}\u00a0minut|Koden udløber om {n}\u00a0minutter',
  qrLabel: 'QR-kode, du scanner med telefonen for at bekræfte din alder',
  openHere: 'Åbn på denne enhed',
  mobileTitle: 'Bekræft din alder',
  mobileHelp: 'Appen guider dig igennem på få sekunder.',
  openApp: 'Åbn appen',
  showQr: 'Vis en QR-kode i stedet',
  scannedTitle: 'Verifikation i gang',
  scannedHelp: 'Fortsæt på din telefon.',
  completedTitle: 'Alder bekræftet',
  completedHelp: 'Tak, så er du klar.',
  confirmingTitle: 'Bekræfter',
  confirmingHelp: 'Kun et par sekunder mere…',
  redirectingTitle: 'Alder bekræftet',
  redirectingHelp: 'Sender dig tilbage…',
  failedTitle: 'Verifikationen mislykkedes',
  failedHelp: 'Du kan prøve igen med det samme.',
  cancelledTitle: 'Verifikationen blev annulleret',
  cancelledHelp: 'Du kan starte forfra, når du vil.',
  expiredTitle: 'QR-koden er udløbet',
  expiredHelp: 'En ny kode vises automatisk.',
  errorTitle: 'Verifikationen er ikke tilgængelig',
  errorHelp: 'Tjenesten svarer ikke lige nu.',
  configHelp: 'Webstedets aldersverifikation er ikke sat rigtigt op.',
  timeoutTitle: 'Kunne ikke bekræfte',
  timeoutHelp: 'Webstedet kunne ikke bekræfte din verifikation.',
  retry: 'Prøv igen',
  openWalletApp: 'Åbn din app til aldersverifikation',
  openWallet: 'Åbn din tegnebogsapp',
  useWalletHere: 'Brug en tegnebog på denne enhed',
  walletFailedTitle: 'Tegnebogen delte ikke noget bevis',
  walletFailedHelp: 'Prøv igen, eller scan QR-koden.',
  backToQr: 'Tilbage til QR-koden',
  walletTitle: 'Scan med din EU-identitets\u00adtegnebog',
};
