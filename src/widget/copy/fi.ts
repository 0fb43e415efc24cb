import type { Copy } from './fr.ts';

/**
 * Finnish copy (docs/embedding.md#languages): the plain imperative Finnish services use (a
 * formal "te" would read as a translation); "EU:n digitaalisen identiteetin lompakko", as
 * Finland's Digital and Population Data Services Agency names the wallet.
 */
export const fi: Copy = {
  brand: 'Iän todentaminen',
  testMode: 'Testitila',
  creatingTitle: 'Valmistellaan',
  creatingHelp: 'Tämä kestää vain muutaman sekunnin.',
  waitingTitle: 'Skannaa tämä QR-koodi puhelimellasi',
  expiresIn: 'one=Koodi on voimassa vielä {n}\u00a0minuutin|Koodi on voimassa vielä {n}\u00a0minuuttia',
  qrLabel: 'QR-koodi, jonka skannaamalla todennat ikäsi puhelimella',
  openHere: 'Avaa tällä laitteella',
  mobileTitle: 'Todenna ikäsi',
  mobileHelp: 'Sovellus opastaa sinua muutamassa sekunnissa.',
  openApp: 'Avaa sovellus',
  showQr: 'Näytä mieluummin QR-koodi',
  scannedTitle: 'Todentaminen käynnissä',
  scannedHelp: 'Jatka puhelimellasi.',
  completedTitle: 'Ikä todennettu',
  completedHelp: 'Kiitos, kaikki on valmista.',
  confirmingTitle: 'Vahvistetaan',
  confirmingHelp: 'Vielä muutama sekunti…',
  redirectingTitle: 'Ikä todennettu',
  redirectingHelp: 'Palataan sivustolle…',
  failedTitle: 'Todentaminen ei onnistunut',
  failedHelp: 'Voit yrittää heti uudelleen.',
  cancelledTitle: 'Todentaminen peruttu',
  cancelledHelp: 'Voit aloittaa uudelleen milloin tahansa.',
  expiredTitle: 'QR-koodi vanheni',
  expiredHelp: 'Uusi koodi tulee näkyviin automaattisesti.',
  errorTitle: 'Todentaminen ei ole käytettävissä',
  errorHelp: 'Palvelu ei vastaa juuri nyt.',
  configHelp: 'Sivuston iän todentamista ei ole määritetty oikein.',
  timeoutTitle: 'Vahvistus ei onnistunut',
  timeoutHelp: 'Sivusto ei voinut vahvistaa todentamistasi.',
  retry: 'Yritä uudelleen',
  openWalletApp: 'Avaa iän todentamissovellus',
  openWallet: 'Avaa lompakkosovellus',
  useWalletHere: 'Käytä lompakkoa tällä laitteella',
  walletFailedTitle: 'Lompakko ei jakanut todistetta',
  walletFailedHelp: 'Yritä uudelleen tai skannaa QR-koodi.',
  backToQr: 'Takaisin QR-koodiin',
  walletTitle: 'Skannaa EU:n digitaalisen identiteetin lompakolla',
};
