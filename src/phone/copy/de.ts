import type { PhoneCopy } from './index.ts';
import { plural } from './plural.ts';

/** German: formal "Sie", German quotation marks. */
export const de: PhoneCopy = {
  doneView: {
    title: 'Zurück aus Ihrer Wallet',
    checking: 'Wird geprüft…',
    shared: {
      title: 'Nachweis übermittelt',
      help: 'Kehren Sie zur anfragenden Seite zurück: Sie macht von selbst weiter.',
    },
    ended: {
      title: 'Diese Prüfung ist beendet',
      help: 'Kehren Sie zur anfragenden Seite zurück, um das Ergebnis zu sehen.',
    },
    neutral: {
      title: 'Hier gibt es nichts anzuzeigen',
      help: 'Dieser Link ist ungültig oder wurde schon verwendet. Kehren Sie zur vorherigen Seite zurück.',
    },
  },
  title: 'Test-Smartphone',
  pageTitle: 'Identitätsprüfung',
  sandboxMark: 'Testmodus',
  sandboxNote:
    'Diese Seite ersetzt die mobile App. Es wird keine echte Identität geprüft: ' +
    'Wählen Sie eine Testperson und entscheiden Sie über das Ergebnis.',
  loading: 'Prüfanfrage wird geöffnet\u00a0…',
  askedBy: (audience) => `${audience} bittet Sie um folgenden Nachweis:`,
  askedByBlind: 'Eine anonyme Website bittet Sie um folgenden Nachweis:',
  blindNote: (app) =>
    `Der Prüfdienst erfährt nicht, um welche Website es sich handelt. Der Nachweis wird nur für die App „${app}“ ausgestellt.`,
  minimalNote: 'Nur diese Antworten verlassen das Smartphone, sonst nichts über Sie.',
  expiresIn: (text) => `Anfrage läuft in ${text} ab`,
  minutesLeft: (n) =>
    plural('de', n, { one: 'Anfrage läuft in {n} Minute ab', other: 'Anfrage läuft in {n} Minuten ab' }),
  outcomes: {
    approved: { title: 'Prüfung bestätigt', help: 'Kehren Sie zur Website zurück: Dort geht es von selbst weiter.' },
    failed: { title: 'Prüfung fehlgeschlagen', help: 'Die Website zeigt an, dass die Prüfung nicht erfolgreich war.' },
    cancelled: { title: 'Prüfung abgebrochen', help: 'Die Website zeigt an, dass Sie abgebrochen haben.' },
  },
  problems: {
    MISSING_LINK: {
      title: 'Dieser Link ist unvollständig',
      help: 'Scannen Sie den QR-Code erneut oder nutzen Sie auf der Website den Link „Auf diesem Gerät öffnen“.',
    },
    NOT_FOUND: {
      title: 'Dieser Prüflink ist ungültig',
      help: 'Vielleicht wurde er falsch übernommen oder existiert nicht mehr. Beginnen Sie auf der Website neu.',
    },
    ALREADY_FINISHED: {
      title: 'Diese Prüfung ist bereits abgeschlossen',
      help: 'Hier ist nichts mehr zu tun. Kehren Sie zur Website zurück.',
    },
    REQUEST_EXPIRED: {
      title: 'Diese Prüfanfrage ist abgelaufen',
      help: 'Kehren Sie zur Website zurück: Dort erscheint ein neuer QR-Code.',
    },
    NETWORK_ERROR: {
      title: 'Der Dienst ist nicht erreichbar',
      help: 'Prüfen Sie die Verbindung und versuchen Sie es erneut.',
    },
    OTHER: {
      title: 'Etwas ist schiefgelaufen',
      help: 'Versuchen Sie es erneut. Wenn es wieder passiert, beginnen Sie auf der Website neu.',
    },
  },
  retry: 'Erneut versuchen',
  backToSite: 'Zurück zur Website',
  scopes: {
    isAdult: 'Sie sind 18 Jahre oder älter',
    isFrench: 'Sie haben die französische Staatsangehörigkeit',
    isEU: 'Sie haben die Staatsangehörigkeit eines EU-Landes',
    isMale: 'Ihr Geschlecht ist männlich',
    isFemale: 'Ihr Geschlecht ist weiblich',
    isUnique: 'Sie sind für diese Website eine einzige Person (sie erhält eine Kennung, die nur dort gilt)',
    revealNationality: 'Ihre Staatsangehörigkeit (die Website erhält sie)',
    revealBirthYear: 'Ihr Geburtsjahr (die Website erhält es)',
  },
  methodsTitle: 'Wie möchten Sie den Nachweis erbringen?',
  useWalletHere: 'Wallet auf diesem Smartphone verwenden',
  openWalletApp: 'Ihre Wallet-App öffnen',
  continueWith: (p) => `Weiter mit ${p}`,
  opening: (p) => `${p} wird geöffnet\u00a0…`,
  walletWaiting: 'Warten auf Ihre Wallet\u00a0…',
  notices: {
    refused: {
      title: 'Wir konnten diese Anmeldung nicht bestätigen',
      help: 'An die Website wurde nichts übermittelt. Versuchen Sie es erneut oder wählen Sie einen anderen Weg.',
    },
    wallet_declined: {
      title: 'Ihre Wallet hat keinen Nachweis geteilt',
      help: 'An die Website wurde nichts übermittelt. Versuchen Sie es erneut oder wählen Sie einen anderen Weg.',
    },
    wallet_refused: {
      title: 'Der Nachweis Ihrer Wallet konnte nicht geprüft werden',
      help: 'An die Website wurde nichts übermittelt. Versuchen Sie es erneut oder wählen Sie einen anderen Weg.',
    },
  },
  endings: {
    approved: {
      title: 'Fertig – Sie können zu Ihrem Computer zurückkehren',
      help: 'Die Website macht von selbst weiter. Wenn Sie auf diesem Smartphone begonnen haben, kehren Sie einfach zur Website zurück.',
    },
    failed: { title: 'Prüfung fehlgeschlagen', help: 'Die Website zeigt an, dass die Prüfung nicht erfolgreich war.' },
    cancelled: {
      title: 'Prüfung abgebrochen',
      help: 'Sie haben sich entschieden, Ihre Daten nicht zu teilen. Die Website zeigt an, dass die Prüfung abgebrochen wurde.',
    },
    claims_missing: {
      title: 'Ihr Identitätsanbieter hat nicht alles Angefragte übermittelt',
      help: 'Die Website zeigt an, dass die Prüfung nicht erfolgreich war. Sie können auf der Website neu beginnen.',
    },
    provider_error: {
      title: 'Ihr Identitätsanbieter konnte die Prüfung nicht abschließen',
      help: 'Er war nicht erreichbar oder seine Antwort war ungültig. Beginnen Sie auf der Website neu.',
    },
    ended: {
      title: 'Diese Prüfung war bereits beendet',
      help: 'Sie wurde während Ihrer Anmeldung abgeschlossen oder ist abgelaufen. Kehren Sie zur Website zurück.',
    },
    link_expired: {
      title: 'Dieser Anmeldelink ist abgelaufen oder wurde bereits verwendet',
      help: 'Kehren Sie zur Website zurück und starten Sie die Prüfung erneut.',
    },
  },
  demoAudience: 'Die Demoseite für Designer',
};
