import type { PhoneCopy } from './index.ts';

/** German: formal "Sie", German quotation marks. */
export const de: PhoneCopy = {
  title: 'Test-Smartphone',
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
  personaLegend: 'Testperson',
  methodLegend: 'Prüfmethode',
  methodOnlyWallet: 'Diese Anfrage läuft im EUDI-Wallet-Modus: Nur die Wallet kann sie beantworten.',
  methodOnlyFace: 'Diese Anfrage läuft nicht im EUDI-Wallet-Modus: Die Wallet wird nicht angeboten.',
  approve: 'Bestätigen',
  fail: 'Prüfung scheitern lassen',
  cancel: 'Abbrechen',
  sending: 'Wird gesendet\u00a0…',
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
  methods: { face_check: 'Gesichtsprüfung', eudi_wallet: 'EUDI-Wallet' },
};
