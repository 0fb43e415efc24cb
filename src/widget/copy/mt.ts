import type { Copy } from './fr.ts';

/**
 * Maltese copy: the courteous singular Maltese public services use ("Skennja", "tiegħek"), no
 * slang; the Commission's terms ("verifika tal-età", "Kartiera tal-Identità Diġitali tal-UE");
 * the Maltese apostrophe ’ and quotation marks “…”.
 * The countdown reads "Jiskadi fi żmien 4:59" ("within", the code being the subject): the time
 * needs no article, and the line stays as short as the English one (it never wraps in the compact card).
 */
export const mt: Copy = {
  brand: 'Verifika tal-età',
  testMode: 'Modalità tat-test',
  creatingTitle: 'Qed nippreparaw',
  creatingHelp: 'Dan jieħu ftit sekondi biss.',
  waitingTitle: 'Skennja dan il-kodiċi QR bil-mowbajl tiegħek',
  expiresIn:
    'two=Jiskadi fi żmien {n}\u00a0minuti|few=Jiskadi fi żmien {n}\u00a0minuti|' +
    'many=Jiskadi fi żmien {n}-il minuta|Jiskadi fi żmien {n}\u00a0minuta',
  qrLabel: 'Kodiċi QR biex tiskennjah bil-mowbajl u tivverifika l-età tiegħek',
  openHere: 'Iftaħ fuq dan l-apparat',
  mobileTitle: 'Ivverifika l-età tiegħek',
  mobileHelp: 'L-app tiggwidak f’ftit sekondi.',
  openApp: 'Iftaħ l-app',
  showQr: 'Minflok, uri kodiċi QR',
  scannedTitle: 'Il-verifika għaddejja',
  scannedHelp: 'Kompli fuq il-mowbajl tiegħek.',
  completedTitle: 'L-età ġiet ivverifikata',
  completedHelp: 'Grazzi, kollox lest.',
  confirmingTitle: 'Qed nikkonfermaw',
  confirmingHelp: 'Ftit sekondi oħra biss…',
  redirectingTitle: 'L-età ġiet ivverifikata',
  redirectingHelp: 'Qed nieħduk lura…',
  failedTitle: 'Il-verifika ma rnexxietx',
  failedHelp: 'Tista’ terġa’ tipprova minnufih.',
  cancelledTitle: 'Il-verifika ġiet ikkanċellata',
  cancelledHelp: 'Tista’ terġa’ tibda meta trid.',
  expiredTitle: 'Il-kodiċi QR skada',
  expiredHelp: 'Kodiċi ġdid jidher awtomatikament.',
  errorTitle: 'Il-verifika mhix disponibbli',
  errorHelp: 'Is-servizz mhux qed iwieġeb bħalissa.',
  configHelp: 'Il-verifika tal-età ta’ dan is-sit mhix issettjata sew.',
  timeoutTitle: 'Ma stajniex nikkonfermaw',
  timeoutHelp: 'Is-sit ma setax jikkonferma l-verifika tiegħek.',
  retry: 'Erġa’ pprova',
  openWalletApp: 'Iftaħ l-app tiegħek għall-verifika tal-età',
  openWallet: 'Iftaħ l-app tal-kartiera tiegħek',
  useWalletHere: 'Uża kartiera fuq dan l-apparat',
  walletFailedTitle: 'Il-kartiera ma qasmitx prova',
  walletFailedHelp: 'Erġa’ pprova, jew skennja l-kodiċi QR.',
  backToQr: 'Lura għall-kodiċi QR',
  walletTitle: 'Skennja bil-Kartiera tal-Identità Diġitali tal-UE',
};
