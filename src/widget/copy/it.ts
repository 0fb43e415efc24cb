import type { Copy } from './fr.ts';

/**
 * Italian copy (an addition to the spec's fr and en): formal "Lei" in sentences; buttons and
 * links in the imperative Italian interfaces use for labels ("Apri", "Riprova").
 */
export const it: Copy = {
  brand: 'Verifica dell’età',
  testMode: 'Modalità test',
  creatingTitle: 'Preparazione in corso',
  creatingHelp: 'Ci vorrà solo qualche secondo.',
  waitingTitle: 'Inquadri questo codice QR con lo smartphone',
  expiresIn: 'Questo codice scade tra {t}',
  qrLabel: 'Codice QR da inquadrare con lo smartphone per verificare la sua età',
  openHere: 'Apri su questo dispositivo',
  mobileTitle: 'Verifichi la sua età',
  mobileHelp: 'L’app la guiderà in pochi secondi.',
  openApp: 'Apri l’app',
  showQr: 'Mostra invece un codice QR',
  scannedTitle: 'Verifica in corso',
  scannedHelp: 'Prosegua sullo smartphone.',
  completedTitle: 'Età verificata',
  completedHelp: 'Grazie, è tutto a posto.',
  confirmingTitle: 'Conferma in corso',
  confirmingHelp: 'Ancora qualche secondo…',
  redirectingTitle: 'Età verificata',
  redirectingHelp: 'Reindirizzamento in corso…',
  failedTitle: 'La verifica non è riuscita',
  failedHelp: 'Può riprovare subito.',
  cancelledTitle: 'Verifica annullata',
  cancelledHelp: 'Può riprenderla quando vuole.',
  expiredTitle: 'Codice QR scaduto',
  expiredHelp: 'Un nuovo codice apparirà automaticamente.',
  errorTitle: 'Verifica non disponibile',
  errorHelp: 'Il servizio al momento non risponde.',
  timeoutTitle: 'Conferma non riuscita',
  timeoutHelp: 'Il sito non è riuscito a confermare la verifica.',
  retry: 'Riprova',
  openWalletApp: 'Apri l’app di verifica dell’età',
  useWalletHere: 'Usa un portafoglio su questo dispositivo',
  walletFailedTitle: 'Il portafoglio non ha condiviso alcuna prova',
  walletFailedHelp: 'Riprovi, oppure inquadri il codice QR con lo smartphone.',
  backToQr: 'Torna al codice QR',
};
