import type { PhoneCopy } from './index.ts';
import { plural } from './plural.ts';

/** Spanish, as written in Spain: formal "usted". */
export const es: PhoneCopy = {
  doneView: {
    title: 'De vuelta de su cartera',
    checking: 'Comprobando…',
    shared: { title: 'Prueba enviada', help: 'Vuelva a la página que la pidió: continúa por sí sola.' },
    ended: { title: 'Esta verificación ha terminado', help: 'Vuelva a la página que la pidió para ver cómo terminó.' },
    neutral: {
      title: 'Nada que mostrar aquí',
      help: 'Este enlace no es válido o ya se usó. Vuelva a la página de la que viene.',
    },
  },
  title: 'Móvil de pruebas',
  pageTitle: 'Verificación de identidad',
  sandboxMark: 'Modo de prueba',
  sandboxNote:
    'Esta página sustituye a la aplicación móvil. No se comprueba ninguna identidad real: elija un perfil de prueba y decida el resultado.',
  loading: 'Abriendo la solicitud de verificación…',
  askedBy: (audience) => `${audience} le pide que demuestre:`,
  askedByBlind: 'Un sitio web anónimo le pide que demuestre:',
  blindNote: (app) =>
    `El servicio de verificación no sabe de qué sitio web se trata. La prueba se emite solo para la aplicación «${app}».`,
  minimalNote: 'Solo estas respuestas salen del móvil; nada más sobre usted.',
  expiresIn: (text) => `La solicitud caduca en ${text}`,
  minutesLeft: (n) =>
    plural('es', n, {
      one: 'La solicitud caduca en {n} minuto',
      many: 'La solicitud caduca en {n} de minutos',
      other: 'La solicitud caduca en {n} minutos',
    }),
  outcomes: {
    approved: { title: 'Verificación aprobada', help: 'Puede volver al sitio web: continuará por sí solo.' },
    failed: { title: 'Verificación fallida', help: 'El sitio web indica que la verificación no ha salido bien.' },
    cancelled: { title: 'Verificación cancelada', help: 'El sitio web indica que usted la ha cancelado.' },
  },
  problems: {
    MISSING_LINK: {
      title: 'Este enlace está incompleto',
      help: 'Vuelva a escanear el código QR o use el enlace «Abrir en este dispositivo» del sitio web.',
    },
    NOT_FOUND: {
      title: 'Este enlace de verificación no es válido',
      help: 'Puede estar mal copiado o haber dejado de existir. Vuelva a empezar desde el sitio web.',
    },
    ALREADY_FINISHED: {
      title: 'Esta verificación ya ha terminado',
      help: 'No hay nada más que hacer aquí. Vuelva al sitio web.',
    },
    REQUEST_EXPIRED: {
      title: 'Esta solicitud de verificación ha caducado',
      help: 'Vuelva al sitio web: mostrará un nuevo código QR para escanear.',
    },
    NETWORK_ERROR: {
      title: 'No se puede conectar con el servicio',
      help: 'Compruebe la conexión y vuelva a intentarlo.',
    },
    OTHER: {
      title: 'Algo ha salido mal',
      help: 'Vuelva a intentarlo. Si sigue ocurriendo, empiece de nuevo desde el sitio web.',
    },
  },
  retry: 'Volver a intentarlo',
  backToSite: 'Volver al sitio',
  scopes: {
    isAdult: 'Tiene 18 años o más',
    isFrench: 'Tiene la nacionalidad francesa',
    isEU: 'Tiene la nacionalidad de un país de la UE',
    isMale: 'Su sexo es masculino',
    isFemale: 'Su sexo es femenino',
    isUnique: 'Es una única persona para este sitio web (recibe un identificador que solo vale allí)',
    revealNationality: 'Su nacionalidad (el sitio web la recibe)',
    revealBirthYear: 'Su año de nacimiento (el sitio web lo recibe)',
  },
  methodsTitle: '¿Cómo quiere demostrarlo?',
  useWalletHere: 'Usar una cartera en este móvil',
  openWalletApp: 'Abrir su aplicación de cartera',
  continueWith: (p) => `Continuar con ${p}`,
  opening: (p) => `Abriendo ${p}…`,
  walletWaiting: 'Esperando a su cartera…',
  notices: {
    refused: {
      title: 'No hemos podido confirmar este inicio de sesión',
      help: 'No se ha compartido nada con el sitio web. Vuelva a intentarlo o elija otra forma.',
    },
    wallet_declined: {
      title: 'Su cartera no ha compartido ninguna prueba',
      help: 'No se ha compartido nada con el sitio web. Vuelva a intentarlo o elija otra forma.',
    },
    wallet_refused: {
      title: 'No se ha podido comprobar la prueba de su cartera',
      help: 'No se ha compartido nada con el sitio web. Vuelva a intentarlo o elija otra forma.',
    },
  },
  endings: {
    approved: {
      title: 'Listo: ya puede volver a su ordenador',
      help: 'El sitio web continuará por sí solo. Si empezó en este móvil, simplemente vuelva al sitio web.',
    },
    failed: { title: 'Verificación fallida', help: 'El sitio web indica que la verificación no ha salido bien.' },
    cancelled: {
      title: 'Verificación cancelada',
      help: 'Ha decidido no compartir sus datos. El sitio web indica que la verificación se ha cancelado.',
    },
    claims_missing: {
      title: 'Su proveedor de identidad no ha compartido lo que se pedía',
      help: 'El sitio web indica que la verificación no ha salido bien. Puede volver a empezar desde el sitio web.',
    },
    provider_error: {
      title: 'Su proveedor de identidad no ha podido completar la verificación',
      help: 'No se ha podido contactar con él o su respuesta no era válida. Vuelva a empezar desde el sitio web.',
    },
    ended: {
      title: 'Esta verificación ya había terminado',
      help: 'Terminó o caducó mientras iniciaba sesión. Vuelva al sitio web.',
    },
    link_expired: {
      title: 'Este enlace de inicio de sesión ha caducado o ya se ha usado',
      help: 'Vuelva al sitio web y empiece de nuevo la verificación.',
    },
  },
  demoAudience: 'La página de demostración para diseñadores',
};
