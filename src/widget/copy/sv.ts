import type { Copy } from './fr.ts';

/**
 * Swedish copy: "du", as every Swedish shop and public e-service writes it; the EU's terms
 * ("åldersverifiering", "EU:s digitala identitetsplånbok"); Swedish quotation marks ”…”. A soft
 * hyphen lets the long compound break in the compact card's narrow column.
 */
export const sv: Copy = {
  brand: 'Åldersverifiering',
  testMode: 'Testläge',
  creatingTitle: 'Förbereder',
  creatingHelp: 'Det tar bara några sekunder.',
  waitingTitle: 'Skanna QR-koden med din mobil',
  expiresIn: 'one=Koden går ut om {n}\u00a0minut|Koden går ut om {n}\u00a0minuter',
  qrLabel: 'QR-kod att skanna med mobilen för att verifiera din ålder',
  openHere: 'Öppna på den här enheten',
  mobileTitle: 'Verifiera din ålder',
  mobileHelp: 'I appen tar det bara några sekunder.',
  openApp: 'Öppna appen',
  showQr: 'Visa en QR-kod i stället',
  scannedTitle: 'Verifiering pågår',
  scannedHelp: 'Fortsätt på din mobil.',
  completedTitle: 'Åldern är verifierad',
  completedHelp: 'Tack, nu är allt klart.',
  confirmingTitle: 'Bekräftar',
  confirmingHelp: 'Bara några sekunder till…',
  redirectingTitle: 'Åldern är verifierad',
  redirectingHelp: 'Du skickas tillbaka…',
  failedTitle: 'Verifieringen misslyckades',
  failedHelp: 'Du kan försöka igen direkt.',
  cancelledTitle: 'Verifieringen avbröts',
  cancelledHelp: 'Du kan börja om när du vill.',
  expiredTitle: 'QR-koden har gått ut',
  expiredHelp: 'En ny kod visas automatiskt.',
  errorTitle: 'Verifieringen är inte tillgänglig',
  errorHelp: 'Tjänsten svarar inte just nu.',
  configHelp: 'Webbplatsens åldersverifiering är felaktigt inställd.',
  timeoutTitle: 'Kunde inte bekräfta',
  timeoutHelp: 'Webbplatsen kunde inte bekräfta din verifiering.',
  retry: 'Försök igen',
  openWalletApp: 'Öppna din app för åldersverifiering',
  openWallet: 'Öppna din plånboksapp',
  useWalletHere: 'Använd en plånbok på den här enheten',
  walletFailedTitle: 'Plånboken delade inget bevis',
  walletFailedHelp: 'Försök igen eller skanna QR-koden.',
  backToQr: 'Tillbaka till QR-koden',
  walletTitle: 'Skanna med din EU-identitets\u00adplånbok',
};
