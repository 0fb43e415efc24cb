import type { Copy } from './fr.ts';

/**
 * Estonian copy: sentences address the visitor formally ("teie", "Skannige"), buttons use the
 * short imperative Estonian interfaces use ("Proovi uuesti"); the Commission's terms ("vanuse
 * kontrollimise rakendus", "ELi digiidentiteedi rahakott"); Estonian quotation marks „…“.
 * The countdown reads "Kood kehtib veel 4:59": the time stays in the nominative.
 */
export const et: Copy = {
  brand: 'Vanusekontroll',
  testMode: 'Testrežiim',
  creatingTitle: 'Valmistame ette',
  creatingHelp: 'See võtab vaid mõne sekundi.',
  waitingTitle: 'Skannige QR-kood oma telefoniga',
  expiresIn: 'one=Kood kehtib veel {n}\u00a0minut|Kood kehtib veel {n}\u00a0minutit',
  qrLabel: 'QR-kood vanuse tõendamiseks: skannige see oma telefoniga',
  openHere: 'Ava selles seadmes',
  mobileTitle: 'Tõendage oma vanust',
  mobileHelp: 'Rakenduses võtab see vaid mõne sekundi.',
  openApp: 'Ava rakendus',
  showQr: 'Näita hoopis QR-koodi',
  scannedTitle: 'Kontrollimine käib',
  scannedHelp: 'Jätkake oma telefonis.',
  completedTitle: 'Vanus on kinnitatud',
  completedHelp: 'Aitäh, kõik on korras.',
  confirmingTitle: 'Kinnitamine',
  confirmingHelp: 'Veel mõni hetk…',
  redirectingTitle: 'Vanus on kinnitatud',
  redirectingHelp: 'Suuname teid tagasi…',
  failedTitle: 'Kontrollimine ebaõnnestus',
  failedHelp: 'Võite kohe uuesti proovida.',
  cancelledTitle: 'Kontrollimine katkestati',
  cancelledHelp: 'Võite igal ajal uuesti alustada.',
  expiredTitle: 'QR-kood on aegunud',
  expiredHelp: 'Uus kood ilmub automaatselt.',
  errorTitle: 'Kontrollimine pole saadaval',
  errorHelp: 'Teenus ei vasta praegu.',
  configHelp: 'Selle veebisaidi vanusekontroll on valesti seadistatud.',
  timeoutTitle: 'Kinnitada ei õnnestunud',
  timeoutHelp: 'Veebisait ei saanud teie kontrollimist kinnitada.',
  retry: 'Proovi uuesti',
  openWalletApp: 'Ava oma vanuse kontrollimise rakendus',
  openWallet: 'Ava oma rahakotirakendus',
  useWalletHere: 'Kasuta selles seadmes rahakotti',
  walletFailedTitle: 'Rahakott ei jaganud tõendit',
  walletFailedHelp: 'Proovige uuesti või skannige QR-kood.',
  backToQr: 'Tagasi QR-koodi juurde',
  walletTitle: 'Skannige ELi digiidentiteedi rahakotiga',
};
