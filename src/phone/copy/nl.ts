import type { PhoneCopy } from './index.ts';

/** Dutch: formal "u". */
export const nl: PhoneCopy = {
  title: 'Testtelefoon',
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
  personaLegend: 'Testpersoon',
  methodLegend: 'Verificatiemethode',
  methodOnlyWallet: 'Dit verzoek staat in EUDI-walletmodus: alleen de wallet kan het beantwoorden.',
  methodOnlyFace: 'Dit verzoek staat niet in EUDI-walletmodus: de wallet wordt niet aangeboden.',
  approve: 'Goedkeuren',
  fail: 'Controle laten mislukken',
  cancel: 'Annuleren',
  sending: 'Bezig met verzenden…',
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
  methods: { face_check: 'Gezichtscontrole', eudi_wallet: 'EUDI-wallet' },
};
