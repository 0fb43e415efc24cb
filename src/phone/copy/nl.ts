import type { PhoneCopy } from './index.ts';
import { plural } from './plural.ts';

/** Dutch: formal "u". */
export const nl: PhoneCopy = {
  doneView: {
    title: 'Terug uit je wallet',
    checking: 'Controleren…',
    shared: { title: 'Bewijs gedeeld', help: 'Ga terug naar de pagina die erom vroeg: die gaat vanzelf verder.' },
    ended: {
      title: 'Deze verificatie is afgelopen',
      help: 'Ga terug naar de pagina die erom vroeg om de uitkomst te zien.',
    },
    neutral: {
      title: 'Hier valt niets te tonen',
      help: 'Deze link is niet geldig of al gebruikt. Ga terug naar de pagina waar je vandaan kwam.',
    },
  },
  title: 'Testtelefoon',
  pageTitle: 'Identiteitscontrole',
  sandboxMark: 'Testmodus',
  sandboxNote:
    'Deze pagina vervangt de mobiele app. Er wordt geen echte identiteit gecontroleerd: kies een testpersoon en bepaal de uitkomst.',
  loading: 'Verificatieverzoek wordt geopend…',
  askedBy: (audience) => `${audience} vraagt u aan te tonen:`,
  askedByBlind: 'Een anonieme website vraagt u aan te tonen:',
  blindNote: (app) =>
    `De verificatiedienst weet niet om welke website het gaat. Het bewijs wordt alleen uitgegeven voor de app ‘${app}’.`,
  minimalNote: 'Alleen deze antwoorden verlaten de telefoon, verder niets over u.',
  expiresIn: (text) => `Verzoek verloopt over ${text}`,
  minutesLeft: (n) =>
    plural('nl', n, { one: 'Verzoek verloopt over {n} minuut', other: 'Verzoek verloopt over {n} minuten' }),
  outcomes: {
    approved: { title: 'Verificatie goedgekeurd', help: 'U kunt teruggaan naar de website: die gaat vanzelf verder.' },
    failed: { title: 'Verificatie mislukt', help: 'De website laat zien dat de controle niet is gelukt.' },
    cancelled: { title: 'Verificatie geannuleerd', help: 'De website laat zien dat u hebt geannuleerd.' },
  },
  problems: {
    MISSING_LINK: {
      title: 'Deze link is onvolledig',
      help: 'Scan de QR-code opnieuw of gebruik de link ‘Openen op dit apparaat’ op de website.',
    },
    NOT_FOUND: {
      title: 'Deze verificatielink is ongeldig',
      help: 'Misschien is hij verkeerd overgenomen of bestaat hij niet meer. Begin opnieuw op de website.',
    },
    ALREADY_FINISHED: {
      title: 'Deze verificatie is al afgerond',
      help: 'Hier hoeft u niets meer te doen. Ga terug naar de website.',
    },
    REQUEST_EXPIRED: {
      title: 'Dit verificatieverzoek is verlopen',
      help: 'Ga terug naar de website: daar verschijnt een nieuwe QR-code.',
    },
    NETWORK_ERROR: { title: 'De dienst is niet bereikbaar', help: 'Controleer de verbinding en probeer het opnieuw.' },
    OTHER: {
      title: 'Er is iets misgegaan',
      help: 'Probeer het opnieuw. Blijft het gebeuren, begin dan opnieuw op de website.',
    },
  },
  retry: 'Opnieuw proberen',
  backToSite: 'Terug naar de site',
  scopes: {
    isAdult: 'U bent 18 jaar of ouder',
    isFrench: 'U hebt de Franse nationaliteit',
    isEU: 'U hebt de nationaliteit van een EU-land',
    isMale: 'Uw geslacht is man',
    isFemale: 'Uw geslacht is vrouw',
    isUnique: 'U bent één en dezelfde persoon voor deze website (die krijgt een kenmerk dat alleen daar geldt)',
    revealNationality: 'Uw nationaliteit (de website ontvangt die)',
    revealBirthYear: 'Uw geboortejaar (de website ontvangt dat)',
  },
  methodsTitle: 'Hoe wilt u het aantonen?',
  useWalletHere: 'Een wallet op deze telefoon gebruiken',
  openWalletApp: 'Uw wallet-app openen',
  continueWith: (p) => `Doorgaan met ${p}`,
  opening: (p) => `${p} wordt geopend…`,
  walletWaiting: 'Wachten op uw wallet…',
  notices: {
    refused: {
      title: 'We konden deze aanmelding niet bevestigen',
      help: 'Er is niets met de website gedeeld. Probeer het opnieuw of kies een andere manier.',
    },
    wallet_declined: {
      title: 'Uw wallet heeft geen bewijs gedeeld',
      help: 'Er is niets met de website gedeeld. Probeer het opnieuw of kies een andere manier.',
    },
    wallet_refused: {
      title: 'Het bewijs van uw wallet kon niet worden gecontroleerd',
      help: 'Er is niets met de website gedeeld. Probeer het opnieuw of kies een andere manier.',
    },
  },
  endings: {
    approved: {
      title: 'Klaar – u kunt teruggaan naar uw computer',
      help: 'De website gaat vanzelf verder. Bent u op deze telefoon begonnen, ga dan gewoon terug naar de website.',
    },
    failed: { title: 'Verificatie mislukt', help: 'De website laat zien dat de controle niet is gelukt.' },
    cancelled: {
      title: 'Verificatie geannuleerd',
      help: 'U hebt ervoor gekozen uw gegevens niet te delen. De website laat zien dat de verificatie is geannuleerd.',
    },
    claims_missing: {
      title: 'Uw identiteitsprovider heeft niet gedeeld wat werd gevraagd',
      help: 'De website laat zien dat de controle niet is gelukt. U kunt opnieuw beginnen op de website.',
    },
    provider_error: {
      title: 'Uw identiteitsprovider kon de controle niet afronden',
      help: 'Die was niet bereikbaar of gaf een ongeldig antwoord. Begin opnieuw op de website.',
    },
    ended: {
      title: 'Deze verificatie was al afgelopen',
      help: 'Ze werd afgerond of is verlopen terwijl u zich aanmeldde. Ga terug naar de website.',
    },
    link_expired: {
      title: 'Deze aanmeldlink is verlopen of al gebruikt',
      help: 'Ga terug naar de website en begin de verificatie opnieuw.',
    },
  },
  demoAudience: 'De demopagina voor ontwerpers',
};
