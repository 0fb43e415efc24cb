/**
 * Every word a shopper reads on the example partner's pages, in the seven languages the widget
 * speaks (docs/example-partner.md, "Languages"): a page in German embeds the widget in German and
 * shows its result in German. What only a developer reads (how a page works, the widget's event
 * log) stays in English on every page, marked `lang="en"`.
 */
import type { SCOPE_FIELD, Scope } from '../sdk/index.ts';

/** The widget's locales (src/protocol/wire.ts LOCALES), English first: it is this site's default. */
export const PAGE_LOCALES = ['en', 'fr', 'de', 'es', 'it', 'nl', 'pt'] as const;
export type PageLocale = (typeof PAGE_LOCALES)[number];
export const DEFAULT_PAGE_LOCALE: PageLocale = 'en';

/**
 * The page's language from `?locale=`; anything else (absent, `auto`, unknown) is English.
 *
 * @example readPageLocale('de') // 'de'; readPageLocale('auto') // 'en'
 */
export function readPageLocale(raw: unknown): PageLocale {
  return (PAGE_LOCALES as readonly unknown[]).includes(raw) ? (raw as PageLocale) : DEFAULT_PAGE_LOCALE;
}

/** The widget pages, by template name. */
export type WidgetPage =
  'standard' | 'server-verify' | 'server-verify-timeout' | 'same-page' | 'blind' | 'blind-server-verify';

/** The index's links to the widget pages. */
export type IndexLink =
  | 'standard'
  | 'scopes'
  | 'serverVerify'
  | 'serverVerifyTimeout'
  | 'samePage'
  | 'proof'
  | 'blind'
  | 'blindServerVerify'
  | 'blindProof';

/**
 * The facts a result can state, by the attribute they come from (docs/partner-api.md: `attributes`,
 * `verification_method`).
 */
export type FactName = (typeof SCOPE_FIELD)[Scope] | 'verification_method';

/** What the success pages' script shows; sent to it as JSON in the result card's `data-words`. */
export interface ResultWords {
  checking: string;
  /** title of a result that lets the visitor in */
  welcome: string;
  /** title of a result that says "not 18 or older" */
  notAdult: string;
  /** STANDARD: the backend exchanged the grant just now / had already (server-verify) */
  confirmedNow: string;
  confirmedBefore: string;
  /** ADULT_BLIND: the backend checked the signature just now / had already (server-verify) */
  checkedNow: string;
  checkedBefore: string;
  missing: string;
  missingNote: string;
  used: string;
  usedNote: string;
  failed: string;
  startAgain: string;
  errorCode: string;
  widgetFailed: string;
}

export interface Words {
  /** the language's own name, in the index's language switch */
  language: string;
  yes: string;
  no: string;
  notAsked: string;
  backToShop: string;
  /** before the list of what a widget page asks for */
  asks: string;
  index: { heading: string; lead: string; languages: string };
  links: Record<IndexLink, string>;
  /** each widget page's `<title>` and `<h1>` */
  pages: Record<WidgetPage, { title: string; heading: string }>;
  /**
   * the sentence under the heading, on the STANDARD and the ADULT_BLIND pages: true on a phone and
   * on a computer alike (the widget shows a QR code on one and a button on the other)
   */
  leads: { standard: string; blind: string };
  /** the success pages' `<title>` and `<h1>` */
  resultHeading: string;
  result: ResultWords;
  unavailable: { title: string; heading: string; lead: string };
  facts: Record<FactName, string>;
  /** `other`: an identity provider's own method label, which the shop has no words for */
  methods: { face_check: string; eudi_wallet: string; other: string };
}

const en: Words = {
  language: 'English',
  yes: 'yes',
  no: 'no',
  notAsked: 'not asked',
  backToShop: 'Back to the shop',
  asks: 'The shop asks for:',
  index: {
    heading: 'Welcome to the Demo Shop',
    lead: 'Some of our products are for adults only. Choose how to prove your age:',
    languages: 'Language',
  },
  links: {
    standard: 'Verify your age',
    scopes: 'Verify your age and French nationality, with an anonymous ID for this shop (light theme)',
    serverVerify: 'Verify your age, confirmed by the shop’s server',
    serverVerifyTimeout: 'Verify your age when the shop’s server never confirms',
    samePage: 'Verify your age without leaving the page',
    proof: 'Prove your age with an EU wallet',
    blind: 'Verify your age anonymously',
    blindServerVerify: 'Verify your age anonymously, confirmed by the shop’s server',
    blindProof: 'Prove your age anonymously with an EU wallet',
  },
  pages: {
    standard: { title: 'Verify your age', heading: 'Verify your age to continue' },
    'server-verify': { title: 'Verify your age', heading: 'Verify your age, confirmed by our server' },
    'server-verify-timeout': { title: 'Verify your age', heading: 'Verify your age (our server never confirms)' },
    'same-page': { title: 'Verify your age', heading: 'Verify your age without leaving this page' },
    blind: { title: 'Verify your age anonymously', heading: 'Verify your age anonymously' },
    'blind-server-verify': {
      title: 'Verify your age anonymously',
      heading: 'Verify your age anonymously, confirmed by our server',
    },
  },
  leads: {
    standard:
      'Some of our products are for adults only. ' +
      'Confirm it with your phone: the shop learns the answers to what it asks, nothing else about you.',
    blind:
      'Some of our products are for adults only. ' +
      'Confirm it with your phone: ' +
      'the verification service does not learn which shop is asking, and the shop learns only the answers.',
  },
  resultHeading: 'Your age check',
  result: {
    checking: 'Checking your verification…',
    welcome: 'Verified: welcome to the shop',
    notAdult: 'Checked: you are under 18',
    confirmedNow: 'The shop’s server confirmed this result with the verification service just now.',
    confirmedBefore: 'The shop’s server had already confirmed this result a moment ago.',
    checkedNow: 'The shop’s server checked this result’s signature itself; the verification service was not asked.',
    checkedBefore: 'The shop’s server had already checked this result a moment ago.',
    missing: 'No verification result here',
    missingNote: 'This page is where the age check brings you. Start from the shop page.',
    used: 'This verification was already used',
    usedNote: 'A verification counts once, in the browser that received it. Start again from the shop page.',
    failed: 'Your verification could not be confirmed',
    startAgain: 'Start again from the shop page.',
    errorCode: 'Error code',
    widgetFailed: 'The age check could not be loaded.',
  },
  unavailable: {
    title: 'Age check unavailable',
    heading: 'The age check is unavailable right now',
    lead: 'Please reload the page in a moment.',
  },
  facts: {
    age_over_18: '18 or older',
    is_french: 'French nationality',
    is_eu: 'EU citizen',
    is_male: 'Male',
    is_female: 'Female',
    nationality: 'Nationality',
    birth_year: 'Birth year',
    nullifier: 'Your anonymous ID for this shop',
    verification_method: 'Verified with',
  },
  methods: { face_check: 'a face check', eudi_wallet: 'an EU digital identity wallet', other: 'an identity provider' },
};

const fr: Words = {
  language: 'Français',
  yes: 'oui',
  no: 'non',
  notAsked: 'non demandé',
  backToShop: 'Retour à la boutique',
  asks: 'La boutique demande\u00a0:',
  index: {
    heading: 'Bienvenue sur Demo Shop',
    lead: 'Certains de nos produits sont réservés aux adultes. Choisissez comment prouver votre âge\u00a0:',
    languages: 'Langue',
  },
  links: {
    standard: 'Vérifier votre âge',
    scopes:
      'Vérifier votre âge et votre nationalité française, avec un identifiant anonyme pour cette boutique (thème clair)',
    serverVerify: 'Vérifier votre âge, confirmé par le serveur de la boutique',
    serverVerifyTimeout: 'Vérifier votre âge quand le serveur de la boutique ne confirme jamais',
    samePage: 'Vérifier votre âge sans quitter la page',
    proof: 'Prouver votre âge avec un portefeuille numérique européen',
    blind: 'Vérifier votre âge anonymement',
    blindServerVerify: 'Vérifier votre âge anonymement, confirmé par le serveur de la boutique',
    blindProof: 'Prouver votre âge anonymement avec un portefeuille numérique européen',
  },
  pages: {
    standard: { title: 'Vérifiez votre âge', heading: 'Vérifiez votre âge pour continuer' },
    'server-verify': { title: 'Vérifiez votre âge', heading: 'Vérifiez votre âge, confirmé par notre serveur' },
    'server-verify-timeout': {
      title: 'Vérifiez votre âge',
      heading: 'Vérifiez votre âge (notre serveur ne confirme jamais)',
    },
    'same-page': { title: 'Vérifiez votre âge', heading: 'Vérifiez votre âge sans quitter cette page' },
    blind: { title: 'Vérifiez votre âge anonymement', heading: 'Vérifiez votre âge anonymement' },
    'blind-server-verify': {
      title: 'Vérifiez votre âge anonymement',
      heading: 'Vérifiez votre âge anonymement, confirmé par notre serveur',
    },
  },
  leads: {
    standard:
      'Certains de nos produits sont réservés aux adultes. ' +
      'Confirmez-le avec votre téléphone\u00a0: la boutique apprend les réponses à ce qu’elle demande, rien d’autre sur vous.',
    blind:
      'Certains de nos produits sont réservés aux adultes. ' +
      'Confirmez-le avec votre téléphone\u00a0: ' +
      'le service de vérification ne sait pas quelle boutique demande, et la boutique n’apprend que les réponses.',
  },
  resultHeading: 'Votre vérification d’âge',
  result: {
    checking: 'Vérification en cours…',
    welcome: 'Vérifié\u00a0: bienvenue dans la boutique',
    notAdult: 'Vérifié\u00a0: vous avez moins de 18 ans',
    confirmedNow: 'Le serveur de la boutique vient de confirmer ce résultat auprès du service de vérification.',
    confirmedBefore: 'Le serveur de la boutique avait déjà confirmé ce résultat il y a un instant.',
    checkedNow:
      'Le serveur de la boutique a vérifié lui-même la signature de ce résultat, sans interroger le service de vérification.',
    checkedBefore: 'Le serveur de la boutique avait déjà vérifié ce résultat il y a un instant.',
    missing: 'Aucun résultat de vérification ici',
    missingNote: 'C’est sur cette page que la vérification d’âge vous amène. Commencez par la page de la boutique.',
    used: 'Cette vérification a déjà servi',
    usedNote:
      'Une vérification ne compte qu’une fois, dans le navigateur qui l’a reçue. Recommencez depuis la page de la boutique.',
    failed: 'Votre vérification n’a pas pu être confirmée',
    startAgain: 'Recommencez depuis la page de la boutique.',
    errorCode: 'Code d’erreur',
    widgetFailed: 'La vérification d’âge n’a pas pu être chargée.',
  },
  unavailable: {
    title: 'Vérification d’âge indisponible',
    heading: 'La vérification d’âge est indisponible pour le moment',
    lead: 'Rechargez la page dans un instant.',
  },
  facts: {
    age_over_18: '18 ans ou plus',
    is_french: 'Nationalité française',
    is_eu: 'Citoyen de l’UE',
    is_male: 'Homme',
    is_female: 'Femme',
    nationality: 'Nationalité',
    birth_year: 'Année de naissance',
    nullifier: 'Votre identifiant anonyme pour cette boutique',
    verification_method: 'Vérifié avec',
  },
  methods: {
    face_check: 'une vérification du visage',
    eudi_wallet: 'un portefeuille d’identité numérique européen',
    other: 'un fournisseur d’identité',
  },
};

const de: Words = {
  language: 'Deutsch',
  yes: 'ja',
  no: 'nein',
  notAsked: 'nicht abgefragt',
  backToShop: 'Zurück zum Shop',
  asks: 'Der Shop fragt nach:',
  index: {
    heading: 'Willkommen im Demo Shop',
    lead: 'Einige unserer Produkte sind nur für Erwachsene. Wählen Sie, wie Sie Ihr Alter nachweisen:',
    languages: 'Sprache',
  },
  links: {
    standard: 'Alter bestätigen',
    scopes:
      'Alter und französische Staatsangehörigkeit bestätigen, mit einer anonymen Kennung für diesen Shop (helles Design)',
    serverVerify: 'Alter bestätigen, vom Server des Shops geprüft',
    serverVerifyTimeout: 'Alter bestätigen, wenn der Server des Shops nie bestätigt',
    samePage: 'Alter bestätigen, ohne die Seite zu verlassen',
    proof: 'Alter mit einer EU-Wallet nachweisen',
    blind: 'Alter anonym bestätigen',
    blindServerVerify: 'Alter anonym bestätigen, vom Server des Shops geprüft',
    blindProof: 'Alter anonym mit einer EU-Wallet nachweisen',
  },
  pages: {
    standard: { title: 'Alter bestätigen', heading: 'Bestätigen Sie Ihr Alter, um fortzufahren' },
    'server-verify': { title: 'Alter bestätigen', heading: 'Bestätigen Sie Ihr Alter, geprüft von unserem Server' },
    'server-verify-timeout': {
      title: 'Alter bestätigen',
      heading: 'Bestätigen Sie Ihr Alter (unser Server bestätigt nie)',
    },
    'same-page': { title: 'Alter bestätigen', heading: 'Bestätigen Sie Ihr Alter, ohne diese Seite zu verlassen' },
    blind: { title: 'Alter anonym bestätigen', heading: 'Bestätigen Sie Ihr Alter anonym' },
    'blind-server-verify': {
      title: 'Alter anonym bestätigen',
      heading: 'Bestätigen Sie Ihr Alter anonym, geprüft von unserem Server',
    },
  },
  leads: {
    standard:
      'Einige unserer Produkte sind nur für Erwachsene. ' +
      'Bestätigen Sie es mit Ihrem Smartphone: Der Shop erfährt die Antworten auf seine Fragen, sonst nichts über Sie.',
    blind:
      'Einige unserer Produkte sind nur für Erwachsene. ' +
      'Bestätigen Sie es mit Ihrem Smartphone: ' +
      'Der Prüfdienst erfährt nicht, welcher Shop fragt, und der Shop erfährt nur die Antworten.',
  },
  resultHeading: 'Ihre Altersprüfung',
  result: {
    checking: 'Ergebnis wird geprüft…',
    welcome: 'Bestätigt: Willkommen im Shop',
    notAdult: 'Geprüft: Sie sind unter 18',
    confirmedNow: 'Der Server des Shops hat dieses Ergebnis soeben beim Prüfdienst bestätigt.',
    confirmedBefore: 'Der Server des Shops hatte dieses Ergebnis bereits vor einem Moment bestätigt.',
    checkedNow:
      'Der Server des Shops hat die Signatur dieses Ergebnisses selbst geprüft; der Prüfdienst wurde nicht gefragt.',
    checkedBefore: 'Der Server des Shops hatte dieses Ergebnis bereits vor einem Moment geprüft.',
    missing: 'Hier ist kein Prüfergebnis',
    missingNote: 'Auf diese Seite führt Sie die Altersprüfung. Beginnen Sie auf der Seite des Shops.',
    used: 'Diese Prüfung wurde bereits verwendet',
    usedNote:
      'Eine Prüfung zählt einmal, in dem Browser, der sie erhalten hat. Beginnen Sie erneut auf der Seite des Shops.',
    failed: 'Ihre Prüfung konnte nicht bestätigt werden',
    startAgain: 'Beginnen Sie erneut auf der Seite des Shops.',
    errorCode: 'Fehlercode',
    widgetFailed: 'Die Altersprüfung konnte nicht geladen werden.',
  },
  unavailable: {
    title: 'Altersprüfung nicht verfügbar',
    heading: 'Die Altersprüfung ist gerade nicht verfügbar',
    lead: 'Bitte laden Sie die Seite gleich neu.',
  },
  facts: {
    age_over_18: '18 oder älter',
    is_french: 'Französische Staatsangehörigkeit',
    is_eu: 'EU-Bürger',
    is_male: 'Männlich',
    is_female: 'Weiblich',
    nationality: 'Staatsangehörigkeit',
    birth_year: 'Geburtsjahr',
    nullifier: 'Ihre anonyme Kennung für diesen Shop',
    verification_method: 'Geprüft mit',
  },
  methods: {
    face_check: 'einem Gesichtsabgleich',
    eudi_wallet: 'einer EU-Wallet für die digitale Identität',
    other: 'einem Identitätsanbieter',
  },
};

const es: Words = {
  language: 'Español',
  yes: 'sí',
  no: 'no',
  notAsked: 'no solicitado',
  backToShop: 'Volver a la tienda',
  asks: 'La tienda pide:',
  index: {
    heading: 'Bienvenido a Demo Shop',
    lead: 'Algunos de nuestros productos son solo para adultos. Elija cómo demostrar su edad:',
    languages: 'Idioma',
  },
  links: {
    standard: 'Verificar su edad',
    scopes: 'Verificar su edad y su nacionalidad francesa, con un identificador anónimo para esta tienda (tema claro)',
    serverVerify: 'Verificar su edad, con confirmación del servidor de la tienda',
    serverVerifyTimeout: 'Verificar su edad cuando el servidor de la tienda nunca confirma',
    samePage: 'Verificar su edad sin salir de la página',
    proof: 'Demostrar su edad con una cartera digital de la UE',
    blind: 'Verificar su edad de forma anónima',
    blindServerVerify: 'Verificar su edad de forma anónima, con confirmación del servidor de la tienda',
    blindProof: 'Demostrar su edad de forma anónima con una cartera digital de la UE',
  },
  pages: {
    standard: { title: 'Verifique su edad', heading: 'Verifique su edad para continuar' },
    'server-verify': { title: 'Verifique su edad', heading: 'Verifique su edad, con confirmación de nuestro servidor' },
    'server-verify-timeout': {
      title: 'Verifique su edad',
      heading: 'Verifique su edad (nuestro servidor nunca confirma)',
    },
    'same-page': { title: 'Verifique su edad', heading: 'Verifique su edad sin salir de esta página' },
    blind: { title: 'Verifique su edad de forma anónima', heading: 'Verifique su edad de forma anónima' },
    'blind-server-verify': {
      title: 'Verifique su edad de forma anónima',
      heading: 'Verifique su edad de forma anónima, con confirmación de nuestro servidor',
    },
  },
  leads: {
    standard:
      'Algunos de nuestros productos son solo para adultos. ' +
      'Confírmelo con su móvil: la tienda conoce las respuestas a lo que pregunta, nada más sobre usted.',
    blind:
      'Algunos de nuestros productos son solo para adultos. ' +
      'Confírmelo con su móvil: el servicio de verificación no sabe qué tienda pregunta, y la tienda solo conoce las respuestas.',
  },
  resultHeading: 'Su verificación de edad',
  result: {
    checking: 'Comprobando su verificación…',
    welcome: 'Verificado: bienvenido a la tienda',
    notAdult: 'Comprobado: es menor de 18 años',
    confirmedNow: 'El servidor de la tienda acaba de confirmar este resultado con el servicio de verificación.',
    confirmedBefore: 'El servidor de la tienda ya había confirmado este resultado hace un momento.',
    checkedNow:
      'El servidor de la tienda comprobó por sí mismo la firma de este resultado; no se consultó al servicio de verificación.',
    checkedBefore: 'El servidor de la tienda ya había comprobado este resultado hace un momento.',
    missing: 'Aquí no hay ningún resultado de verificación',
    missingNote: 'A esta página le lleva la verificación de edad. Empiece desde la página de la tienda.',
    used: 'Esta verificación ya se utilizó',
    usedNote:
      'Una verificación cuenta una sola vez, en el navegador que la recibió. Vuelva a empezar desde la página de la tienda.',
    failed: 'No se pudo confirmar su verificación',
    startAgain: 'Vuelva a empezar desde la página de la tienda.',
    errorCode: 'Código de error',
    widgetFailed: 'No se pudo cargar la verificación de edad.',
  },
  unavailable: {
    title: 'Verificación de edad no disponible',
    heading: 'La verificación de edad no está disponible en este momento',
    lead: 'Vuelva a cargar la página en un momento.',
  },
  facts: {
    age_over_18: '18 años o más',
    is_french: 'Nacionalidad francesa',
    is_eu: 'Ciudadano de la UE',
    is_male: 'Hombre',
    is_female: 'Mujer',
    nationality: 'Nacionalidad',
    birth_year: 'Año de nacimiento',
    nullifier: 'Su identificador anónimo para esta tienda',
    verification_method: 'Verificado con',
  },
  methods: {
    face_check: 'una verificación facial',
    eudi_wallet: 'una cartera de identidad digital de la UE',
    other: 'un proveedor de identidad',
  },
};

const it: Words = {
  language: 'Italiano',
  yes: 'sì',
  no: 'no',
  notAsked: 'non richiesto',
  backToShop: 'Torna al negozio',
  asks: 'Il negozio chiede:',
  index: {
    heading: 'Benvenuto su Demo Shop',
    lead: 'Alcuni dei nostri prodotti sono riservati agli adulti. Scelga come dimostrare la sua età:',
    languages: 'Lingua',
  },
  links: {
    standard: 'Verificare la sua età',
    scopes:
      'Verificare la sua età e la cittadinanza francese, con un identificativo anonimo per questo negozio (tema chiaro)',
    serverVerify: 'Verificare la sua età, con conferma del server del negozio',
    serverVerifyTimeout: 'Verificare la sua età quando il server del negozio non conferma mai',
    samePage: 'Verificare la sua età senza lasciare la pagina',
    proof: 'Dimostrare la sua età con un portafoglio digitale UE',
    blind: 'Verificare la sua età in modo anonimo',
    blindServerVerify: 'Verificare la sua età in modo anonimo, con conferma del server del negozio',
    blindProof: 'Dimostrare la sua età in modo anonimo con un portafoglio digitale UE',
  },
  pages: {
    standard: { title: 'Verifichi la sua età', heading: 'Verifichi la sua età per continuare' },
    'server-verify': { title: 'Verifichi la sua età', heading: 'Verifichi la sua età, con conferma del nostro server' },
    'server-verify-timeout': {
      title: 'Verifichi la sua età',
      heading: 'Verifichi la sua età (il nostro server non conferma mai)',
    },
    'same-page': { title: 'Verifichi la sua età', heading: 'Verifichi la sua età senza lasciare questa pagina' },
    blind: { title: 'Verifichi la sua età in modo anonimo', heading: 'Verifichi la sua età in modo anonimo' },
    'blind-server-verify': {
      title: 'Verifichi la sua età in modo anonimo',
      heading: 'Verifichi la sua età in modo anonimo, con conferma del nostro server',
    },
  },
  leads: {
    standard:
      'Alcuni dei nostri prodotti sono riservati agli adulti. ' +
      'Lo confermi con lo smartphone: il negozio conosce le risposte a ciò che chiede, nient’altro su di lei.',
    blind:
      'Alcuni dei nostri prodotti sono riservati agli adulti. ' +
      'Lo confermi con lo smartphone: ' +
      'il servizio di verifica non sa quale negozio lo chiede, e il negozio conosce solo le risposte.',
  },
  resultHeading: 'La verifica della sua età',
  result: {
    checking: 'Controllo in corso…',
    welcome: 'Verificato: benvenuto nel negozio',
    notAdult: 'Controllato: lei ha meno di 18 anni',
    confirmedNow: 'Il server del negozio ha appena confermato questo risultato presso il servizio di verifica.',
    confirmedBefore: 'Il server del negozio aveva già confermato questo risultato poco fa.',
    checkedNow:
      'Il server del negozio ha controllato da sé la firma di questo risultato; il servizio di verifica non è stato interpellato.',
    checkedBefore: 'Il server del negozio aveva già controllato questo risultato poco fa.',
    missing: 'Nessun risultato di verifica qui',
    missingNote: 'È la pagina a cui la porta la verifica dell’età. Parta dalla pagina del negozio.',
    used: 'Questa verifica è già stata usata',
    usedNote: 'Una verifica vale una sola volta, nel browser che l’ha ricevuta. Ricominci dalla pagina del negozio.',
    failed: 'Non è stato possibile confermare la sua verifica',
    startAgain: 'Ricominci dalla pagina del negozio.',
    errorCode: 'Codice di errore',
    widgetFailed: 'Non è stato possibile caricare la verifica dell’età.',
  },
  unavailable: {
    title: 'Verifica dell’età non disponibile',
    heading: 'La verifica dell’età non è disponibile al momento',
    lead: 'Ricarichi la pagina tra un momento.',
  },
  facts: {
    age_over_18: '18 anni o più',
    is_french: 'Cittadinanza francese',
    is_eu: 'Cittadino UE',
    is_male: 'Uomo',
    is_female: 'Donna',
    nationality: 'Cittadinanza',
    birth_year: 'Anno di nascita',
    nullifier: 'Il suo identificativo anonimo per questo negozio',
    verification_method: 'Verificato con',
  },
  methods: {
    face_check: 'un controllo del volto',
    eudi_wallet: 'un portafoglio di identità digitale UE',
    other: 'un fornitore di identità',
  },
};

const nl: Words = {
  language: 'Nederlands',
  yes: 'ja',
  no: 'nee',
  notAsked: 'niet gevraagd',
  backToShop: 'Terug naar de winkel',
  asks: 'De winkel vraagt naar:',
  index: {
    heading: 'Welkom bij Demo Shop',
    lead: 'Sommige van onze producten zijn alleen voor volwassenen. Kies hoe u uw leeftijd aantoont:',
    languages: 'Taal',
  },
  links: {
    standard: 'Uw leeftijd bevestigen',
    scopes: 'Uw leeftijd en Franse nationaliteit bevestigen, met een anonieme code voor deze winkel (licht thema)',
    serverVerify: 'Uw leeftijd bevestigen, gecontroleerd door de server van de winkel',
    serverVerifyTimeout: 'Uw leeftijd bevestigen als de server van de winkel nooit bevestigt',
    samePage: 'Uw leeftijd bevestigen zonder de pagina te verlaten',
    proof: 'Uw leeftijd aantonen met een EU-wallet',
    blind: 'Uw leeftijd anoniem bevestigen',
    blindServerVerify: 'Uw leeftijd anoniem bevestigen, gecontroleerd door de server van de winkel',
    blindProof: 'Uw leeftijd anoniem aantonen met een EU-wallet',
  },
  pages: {
    standard: { title: 'Bevestig uw leeftijd', heading: 'Bevestig uw leeftijd om verder te gaan' },
    'server-verify': { title: 'Bevestig uw leeftijd', heading: 'Bevestig uw leeftijd, gecontroleerd door onze server' },
    'server-verify-timeout': {
      title: 'Bevestig uw leeftijd',
      heading: 'Bevestig uw leeftijd (onze server bevestigt nooit)',
    },
    'same-page': { title: 'Bevestig uw leeftijd', heading: 'Bevestig uw leeftijd zonder deze pagina te verlaten' },
    blind: { title: 'Bevestig uw leeftijd anoniem', heading: 'Bevestig uw leeftijd anoniem' },
    'blind-server-verify': {
      title: 'Bevestig uw leeftijd anoniem',
      heading: 'Bevestig uw leeftijd anoniem, gecontroleerd door onze server',
    },
  },
  leads: {
    standard:
      'Sommige van onze producten zijn alleen voor volwassenen. ' +
      'Bevestig het met uw telefoon: de winkel krijgt de antwoorden op wat hij vraagt, verder niets over u.',
    blind:
      'Sommige van onze producten zijn alleen voor volwassenen. ' +
      'Bevestig het met uw telefoon: de verificatiedienst weet niet welke winkel het vraagt, en de winkel krijgt alleen de antwoorden.',
  },
  resultHeading: 'Uw leeftijdscontrole',
  result: {
    checking: 'Uw verificatie wordt gecontroleerd…',
    welcome: 'Bevestigd: welkom in de winkel',
    notAdult: 'Gecontroleerd: u bent jonger dan 18',
    confirmedNow: 'De server van de winkel heeft dit resultaat zojuist bij de verificatiedienst bevestigd.',
    confirmedBefore: 'De server van de winkel had dit resultaat een moment geleden al bevestigd.',
    checkedNow:
      'De server van de winkel heeft de handtekening van dit resultaat zelf gecontroleerd; de verificatiedienst is niets gevraagd.',
    checkedBefore: 'De server van de winkel had dit resultaat een moment geleden al gecontroleerd.',
    missing: 'Hier is geen verificatieresultaat',
    missingNote: 'Naar deze pagina brengt de leeftijdscontrole u. Begin op de pagina van de winkel.',
    used: 'Deze verificatie is al gebruikt',
    usedNote:
      'Een verificatie telt één keer, in de browser die haar ontving. Begin opnieuw op de pagina van de winkel.',
    failed: 'Uw verificatie kon niet worden bevestigd',
    startAgain: 'Begin opnieuw op de pagina van de winkel.',
    errorCode: 'Foutcode',
    widgetFailed: 'De leeftijdscontrole kon niet worden geladen.',
  },
  unavailable: {
    title: 'Leeftijdscontrole niet beschikbaar',
    heading: 'De leeftijdscontrole is nu niet beschikbaar',
    lead: 'Laad de pagina zo dadelijk opnieuw.',
  },
  facts: {
    age_over_18: '18 of ouder',
    is_french: 'Franse nationaliteit',
    is_eu: 'EU-burger',
    is_male: 'Man',
    is_female: 'Vrouw',
    nationality: 'Nationaliteit',
    birth_year: 'Geboortejaar',
    nullifier: 'Uw anonieme code voor deze winkel',
    verification_method: 'Gecontroleerd met',
  },
  methods: {
    face_check: 'een gezichtscontrole',
    eudi_wallet: 'een EU-wallet voor digitale identiteit',
    other: 'een identiteitsprovider',
  },
};

const pt: Words = {
  language: 'Português',
  yes: 'sim',
  no: 'não',
  notAsked: 'não pedido',
  backToShop: 'Voltar à loja',
  asks: 'A loja pede:',
  index: {
    heading: 'Bem-vindo à Demo Shop',
    lead: 'Alguns dos nossos produtos são só para adultos. Escolha como provar a sua idade:',
    languages: 'Idioma',
  },
  links: {
    standard: 'Verificar a sua idade',
    scopes:
      'Verificar a sua idade e a nacionalidade francesa, com um identificador anónimo para esta loja (tema claro)',
    serverVerify: 'Verificar a sua idade, com confirmação do servidor da loja',
    serverVerifyTimeout: 'Verificar a sua idade quando o servidor da loja nunca confirma',
    samePage: 'Verificar a sua idade sem sair da página',
    proof: 'Provar a sua idade com uma carteira digital da UE',
    blind: 'Verificar a sua idade de forma anónima',
    blindServerVerify: 'Verificar a sua idade de forma anónima, com confirmação do servidor da loja',
    blindProof: 'Provar a sua idade de forma anónima com uma carteira digital da UE',
  },
  pages: {
    standard: { title: 'Verifique a sua idade', heading: 'Verifique a sua idade para continuar' },
    'server-verify': {
      title: 'Verifique a sua idade',
      heading: 'Verifique a sua idade, com confirmação do nosso servidor',
    },
    'server-verify-timeout': {
      title: 'Verifique a sua idade',
      heading: 'Verifique a sua idade (o nosso servidor nunca confirma)',
    },
    'same-page': { title: 'Verifique a sua idade', heading: 'Verifique a sua idade sem sair desta página' },
    blind: { title: 'Verifique a sua idade de forma anónima', heading: 'Verifique a sua idade de forma anónima' },
    'blind-server-verify': {
      title: 'Verifique a sua idade de forma anónima',
      heading: 'Verifique a sua idade de forma anónima, com confirmação do nosso servidor',
    },
  },
  leads: {
    standard:
      'Alguns dos nossos produtos são só para adultos. ' +
      'Confirme-o com o seu telemóvel: a loja fica a saber as respostas ao que pergunta, mais nada sobre si.',
    blind:
      'Alguns dos nossos produtos são só para adultos. ' +
      'Confirme-o com o seu telemóvel: o serviço de verificação não sabe que loja pergunta, e a loja só fica a saber as respostas.',
  },
  resultHeading: 'A sua verificação de idade',
  result: {
    checking: 'A verificar…',
    welcome: 'Verificado: bem-vindo à loja',
    notAdult: 'Verificado: tem menos de 18 anos',
    confirmedNow: 'O servidor da loja acabou de confirmar este resultado junto do serviço de verificação.',
    confirmedBefore: 'O servidor da loja já tinha confirmado este resultado há instantes.',
    checkedNow:
      'O servidor da loja verificou ele próprio a assinatura deste resultado; o serviço de verificação não foi consultado.',
    checkedBefore: 'O servidor da loja já tinha verificado este resultado há instantes.',
    missing: 'Não há aqui nenhum resultado de verificação',
    missingNote: 'É a esta página que a verificação de idade o traz. Comece pela página da loja.',
    used: 'Esta verificação já foi usada',
    usedNote: 'Uma verificação conta uma só vez, no navegador que a recebeu. Recomece a partir da página da loja.',
    failed: 'Não foi possível confirmar a sua verificação',
    startAgain: 'Recomece a partir da página da loja.',
    errorCode: 'Código de erro',
    widgetFailed: 'Não foi possível carregar a verificação de idade.',
  },
  unavailable: {
    title: 'Verificação de idade indisponível',
    heading: 'A verificação de idade está indisponível de momento',
    lead: 'Recarregue a página dentro de instantes.',
  },
  facts: {
    age_over_18: '18 anos ou mais',
    is_french: 'Nacionalidade francesa',
    is_eu: 'Cidadão da UE',
    is_male: 'Homem',
    is_female: 'Mulher',
    nationality: 'Nacionalidade',
    birth_year: 'Ano de nascimento',
    nullifier: 'O seu identificador anónimo para esta loja',
    verification_method: 'Verificado com',
  },
  methods: {
    face_check: 'uma verificação facial',
    eudi_wallet: 'uma carteira de identidade digital da UE',
    other: 'um fornecedor de identidade',
  },
};

/** The words of each page language. */
export const WORDS: Readonly<Record<PageLocale, Words>> = { en, fr, de, es, it, nl, pt };
