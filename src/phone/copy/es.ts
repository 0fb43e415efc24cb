import type { PhoneCopy } from './index.ts';

/** Spanish, as written in Spain: formal "usted". */
export const es: PhoneCopy = {
  title: 'Móvil de pruebas',
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
  personaLegend: 'Perfil de prueba',
  methodLegend: 'Método de verificación',
  methodOnlyWallet: 'Esta solicitud está en modo cartera EUDI: solo la cartera puede responderla.',
  methodOnlyFace: 'Esta solicitud no está en modo cartera EUDI: la cartera no se ofrece.',
  approve: 'Aprobar',
  fail: 'Hacer fallar la verificación',
  cancel: 'Cancelar',
  sending: 'Enviando…',
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
  methods: { face_check: 'Reconocimiento facial', eudi_wallet: 'Cartera EUDI' },
};
