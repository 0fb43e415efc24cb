/**
 * French copy: written as a French product writes it (vouvoiement, French typography with a
 * non-breaking space before « : ; ? ! »), not translated from English. Every user-facing string of
 * the widget lives here and in en.ts, with the same keys.
 */
export const fr = {
  brand: 'Vérification de l’âge',
  testMode: 'Mode test',
  creatingTitle: 'Préparation en cours',
  creatingHelp: 'Cela ne prend que quelques secondes.',
  waitingTitle: 'Scannez ce QR code avec votre téléphone',
  // the countdown, in whole minutes counted up: a sentence for each plural category (plural.ts)
  expiresIn: 'one=Ce code expire dans {n}\u00a0minute|Ce code expire dans {n}\u00a0minutes',
  qrLabel: 'QR code à scanner pour vérifier votre âge',
  openHere: 'Ouvrir sur cet appareil',
  mobileTitle: 'Vérifiez votre âge',
  mobileHelp: 'L’application vous guide en quelques secondes.',
  openApp: 'Ouvrir l’application',
  showQr: 'Afficher plutôt un QR code',
  scannedTitle: 'Vérification en cours',
  scannedHelp: 'Poursuivez sur votre téléphone.',
  completedTitle: 'Âge vérifié',
  completedHelp: 'Merci, tout est en ordre.',
  confirmingTitle: 'Confirmation en cours',
  confirmingHelp: 'Encore quelques secondes…',
  redirectingTitle: 'Âge vérifié',
  redirectingHelp: 'Redirection en cours…',
  failedTitle: 'La vérification n’a pas abouti',
  failedHelp: 'Vous pouvez réessayer dès maintenant.',
  cancelledTitle: 'Vérification annulée',
  cancelledHelp: 'Vous pouvez la reprendre quand vous le souhaitez.',
  expiredTitle: 'QR code expiré',
  expiredHelp: 'Un nouveau code s’affichera automatiquement.',
  errorTitle: 'Vérification indisponible',
  errorHelp: 'Le service ne répond pas pour le moment.',
  configHelp: 'La vérification d’âge de ce site est mal configurée.',
  timeoutTitle: 'Confirmation impossible',
  timeoutHelp: 'Le site n’a pas pu confirmer votre vérification.',
  retry: 'Réessayer',
  openWalletApp: 'Ouvrir votre application de vérification d’âge',
  openWallet: 'Ouvrir votre portefeuille',
  useWalletHere: 'Utiliser un portefeuille sur cet appareil',
  walletFailedTitle: 'Le portefeuille n’a pas transmis la preuve',
  walletFailedHelp: 'Réessayez, ou scannez le QR code.',
  backToQr: 'Revenir au QR code',
  walletTitle: 'Scannez avec votre portefeuille européen',
};

/** The shape both locales share: a missing or extra key is a type error. */
export type Copy = Record<keyof typeof fr, string>;
