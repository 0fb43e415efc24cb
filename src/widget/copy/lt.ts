import type { Copy } from './fr.ts';

/**
 * Lithuanian copy: formal "Jūs" (capitalised, as a Lithuanian service writes to its customers),
 * buttons in the infinitive ("Bandyti dar kartą"); the Commission's terms ("amžiaus patikrinimo
 * programėlė", "ES skaitmeninės tapatybės piniginė"); Lithuanian quotation marks „…“.
 * The countdown reads "Kodas galioja dar 4:59": the time needs no case ending.
 */
export const lt: Copy = {
  brand: 'Amžiaus patikrinimas',
  testMode: 'Testinis režimas',
  creatingTitle: 'Ruošiama',
  creatingHelp: 'Tai užtruks vos kelias sekundes.',
  waitingTitle: 'Nuskaitykite QR kodą telefonu',
  expiresIn:
    'one=Kodas galioja dar {n}\u00a0minutę|few=Kodas galioja dar {n}\u00a0minutes|Kodas galioja dar {n}\u00a0minučių',
  qrLabel: 'QR kodas, kurį nuskaitę telefonu patvirtinsite savo amžių',
  openHere: 'Atidaryti šiame įrenginyje',
  mobileTitle: 'Patvirtinkite savo amžių',
  mobileHelp: 'Programėlėje tai užtruks vos kelias sekundes.',
  openApp: 'Atidaryti programėlę',
  showQr: 'Verčiau rodyti QR kodą',
  scannedTitle: 'Tikrinama',
  scannedHelp: 'Tęskite telefone.',
  completedTitle: 'Amžius patvirtintas',
  completedHelp: 'Ačiū, viskas atlikta.',
  confirmingTitle: 'Tvirtinama',
  confirmingHelp: 'Dar kelios sekundės…',
  redirectingTitle: 'Amžius patvirtintas',
  redirectingHelp: 'Grąžiname Jus atgal…',
  failedTitle: 'Patikrinti nepavyko',
  failedHelp: 'Galite iškart bandyti dar kartą.',
  cancelledTitle: 'Patikrinimas atšauktas',
  cancelledHelp: 'Galite pradėti iš naujo bet kada.',
  expiredTitle: 'QR kodas nebegalioja',
  expiredHelp: 'Naujas kodas atsiras automatiškai.',
  errorTitle: 'Patikrinimas negalimas',
  errorHelp: 'Paslauga šiuo metu neatsako.',
  configHelp: 'Šios svetainės amžiaus patikrinimas netinkamai sukonfigūruotas.',
  timeoutTitle: 'Nepavyko patvirtinti',
  timeoutHelp: 'Svetainei nepavyko patvirtinti Jūsų patikrinimo.',
  retry: 'Bandyti dar kartą',
  openWalletApp: 'Atidaryti amžiaus patikrinimo programėlę',
  openWallet: 'Atidaryti piniginės programėlę',
  useWalletHere: 'Naudoti piniginę šiame įrenginyje',
  walletFailedTitle: 'Piniginė nepateikė įrodymo',
  walletFailedHelp: 'Bandykite dar kartą arba nuskaitykite QR kodą.',
  backToQr: 'Grįžti prie QR kodo',
  walletTitle: 'Nuskaitykite ES skaitmeninės tapatybės pinigine',
};
