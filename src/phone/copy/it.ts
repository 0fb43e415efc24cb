import type { PhoneCopy } from './index.ts';
import { plural } from './plural.ts';

/** Italian: formal "Lei" in sentences; button labels in the imperative interfaces use. */
export const it: PhoneCopy = {
  doneView: {
    title: 'Di ritorno dal tuo wallet',
    checking: 'Verifica in corso…',
    shared: { title: 'Prova condivisa', help: 'Torna alla pagina che l’ha chiesta: prosegue da sola.' },
    ended: {
      title: 'Questa verifica è terminata',
      help: 'Torna alla pagina che l’ha chiesta per vedere com’è finita.',
    },
    neutral: {
      title: 'Niente da mostrare qui',
      help: 'Questo link non è valido o è già stato usato. Torna alla pagina da cui vieni.',
    },
  },
  title: 'Telefono di prova',
  pageTitle: 'Verifica dell’identità',
  sandboxMark: 'Modalità test',
  sandboxNote:
    'Questa pagina sostituisce l’app mobile. Nessuna identità reale viene verificata: scelga un profilo di prova e decida l’esito.',
  loading: 'Apertura della richiesta di verifica…',
  askedBy: (audience) => `${audience} le chiede di dimostrare:`,
  askedByBlind: 'Un sito anonimo le chiede di dimostrare:',
  blindNote: (app) =>
    `Il servizio di verifica non sa di quale sito si tratti. La prova viene emessa solo per l’app «${app}».`,
  minimalNote: 'Solo queste risposte lasciano il telefono, nient’altro su di lei.',
  expiresIn: (text) => `La richiesta scade tra ${text}`,
  minutesLeft: (n) =>
    plural('it', n, {
      one: 'La richiesta scade tra {n} minuto',
      many: 'La richiesta scade tra {n} di minuti',
      other: 'La richiesta scade tra {n} minuti',
    }),
  outcomes: {
    approved: { title: 'Verifica approvata', help: 'Può tornare al sito: proseguirà da solo.' },
    failed: { title: 'Verifica non riuscita', help: 'Il sito mostra che la verifica non è andata a buon fine.' },
    cancelled: { title: 'Verifica annullata', help: 'Il sito mostra che la verifica è stata annullata.' },
  },
  problems: {
    MISSING_LINK: {
      title: 'Questo link è incompleto',
      help: 'Inquadri di nuovo il codice QR o usi il link «Apri su questo dispositivo» del sito.',
    },
    NOT_FOUND: {
      title: 'Questo link di verifica non è valido',
      help: 'Potrebbe essere stato copiato male o non esistere più. Ricominci dal sito.',
    },
    ALREADY_FINISHED: { title: 'Questa verifica è già conclusa', help: 'Qui non c’è altro da fare. Torni al sito.' },
    REQUEST_EXPIRED: {
      title: 'Questa richiesta di verifica è scaduta',
      help: 'Torni al sito: mostrerà un nuovo codice QR da inquadrare.',
    },
    NETWORK_ERROR: { title: 'Il servizio non è raggiungibile', help: 'Controlli la connessione e riprovi.' },
    OTHER: { title: 'Qualcosa è andato storto', help: 'Riprovi. Se succede ancora, ricominci dal sito.' },
  },
  retry: 'Riprova',
  backToSite: 'Torna al sito',
  scopes: {
    isAdult: 'Ha almeno 18 anni',
    isFrench: 'Ha la cittadinanza francese',
    isEU: 'Ha la cittadinanza di un Paese dell’UE',
    isMale: 'Il suo sesso è maschile',
    isFemale: 'Il suo sesso è femminile',
    isUnique: 'È una sola persona per questo sito (riceve un identificativo valido solo lì)',
    revealNationality: 'La sua cittadinanza (il sito la riceve)',
    revealBirthYear: 'Il suo anno di nascita (il sito lo riceve)',
  },
  methodsTitle: 'Come vuole dimostrarlo?',
  useWalletHere: 'Usa un portafoglio su questo telefono',
  openWalletApp: 'Apri l’app del portafoglio',
  continueWith: (p) => `Continua con ${p}`,
  opening: (p) => `Apertura di ${p}…`,
  walletWaiting: 'In attesa del portafoglio…',
  notices: {
    refused: {
      title: 'Non siamo riusciti a confermare questo accesso',
      help: 'Al sito non è stato trasmesso nulla. Riprovi o scelga un altro modo.',
    },
    wallet_declined: {
      title: 'Il portafoglio non ha condiviso alcuna prova',
      help: 'Al sito non è stato trasmesso nulla. Riprovi o scelga un altro modo.',
    },
    wallet_refused: {
      title: 'Non è stato possibile verificare la prova del portafoglio',
      help: 'Al sito non è stato trasmesso nulla. Riprovi o scelga un altro modo.',
    },
  },
  endings: {
    approved: {
      title: 'Fatto: può tornare al computer',
      help: 'Il sito proseguirà da solo. Se ha iniziato su questo telefono, torni semplicemente al sito.',
    },
    failed: { title: 'Verifica non riuscita', help: 'Il sito mostra che la verifica non è andata a buon fine.' },
    cancelled: {
      title: 'Verifica annullata',
      help: 'Ha scelto di non condividere i suoi dati. Il sito mostra che la verifica è stata annullata.',
    },
    claims_missing: {
      title: 'Il suo fornitore di identità non ha condiviso quanto richiesto',
      help: 'Il sito mostra che la verifica non è andata a buon fine. Può ricominciare dal sito.',
    },
    provider_error: {
      title: 'Il suo fornitore di identità non è riuscito a completare la verifica',
      help: 'Non era raggiungibile o la sua risposta non era valida. Ricominci dal sito.',
    },
    ended: {
      title: 'Questa verifica era già conclusa',
      help: 'Si è conclusa o è scaduta mentre effettuava l’accesso. Torni al sito.',
    },
    link_expired: {
      title: 'Questo link di accesso è scaduto o è già stato usato',
      help: 'Torni al sito e ricominci la verifica.',
    },
  },
  demoAudience: 'La pagina demo per i designer',
};
