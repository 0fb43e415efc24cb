import type { PhoneCopy } from './index.ts';

/** Portuguese, as written in Portugal: the formal third person. */
export const pt: PhoneCopy = {
  title: 'Telemóvel de teste',
  sandboxMark: 'Modo de teste',
  sandboxNote:
    'Esta página substitui a aplicação móvel. Nenhuma identidade real é verificada: escolha um perfil de teste e decida o resultado.',
  loading: 'A abrir o pedido de verificação…',
  askedBy: (audience) => `${audience} pede-lhe que comprove:`,
  askedByBlind: 'Um site anónimo pede-lhe que comprove:',
  blindNote: (app) =>
    `O serviço de verificação não sabe de que site se trata. A prova é emitida apenas para a aplicação «${app}».`,
  minimalNote: 'Só estas respostas saem do telemóvel, nada mais sobre si.',
  expiresIn: (text) => `O pedido expira dentro de ${text}`,
  personaLegend: 'Perfil de teste',
  methodLegend: 'Método de verificação',
  methodOnlyWallet: 'Este pedido está no modo carteira EUDI: só a carteira lhe pode responder.',
  methodOnlyFace: 'Este pedido não está no modo carteira EUDI: a carteira não é proposta.',
  approve: 'Aprovar',
  fail: 'Fazer falhar a verificação',
  cancel: 'Cancelar',
  sending: 'A enviar…',
  outcomes: {
    approved: { title: 'Verificação aprovada', help: 'Pode voltar ao site: ele continua sozinho.' },
    failed: { title: 'Verificação falhada', help: 'O site indica que a verificação não foi bem-sucedida.' },
    cancelled: { title: 'Verificação cancelada', help: 'O site indica que cancelou.' },
  },
  problems: {
    MISSING_LINK: {
      title: 'Esta ligação está incompleta',
      help: 'Leia de novo o código QR ou use a ligação «Abrir neste dispositivo» do site.',
    },
    NOT_FOUND: {
      title: 'Esta ligação de verificação não é válida',
      help: 'Pode ter sido mal copiada ou já não existir. Recomece a partir do site.',
    },
    ALREADY_FINISHED: { title: 'Esta verificação já terminou', help: 'Não há mais nada a fazer aqui. Volte ao site.' },
    REQUEST_EXPIRED: {
      title: 'Este pedido de verificação expirou',
      help: 'Volte ao site: será apresentado um novo código QR para ler.',
    },
    NETWORK_ERROR: { title: 'Não é possível contactar o serviço', help: 'Verifique a ligação e tente novamente.' },
    OTHER: { title: 'Algo correu mal', help: 'Tente novamente. Se continuar a acontecer, recomece a partir do site.' },
  },
  retry: 'Tentar novamente',
  scopes: {
    isAdult: 'Tem 18 anos ou mais',
    isFrench: 'Tem nacionalidade francesa',
    isEU: 'Tem a nacionalidade de um país da UE',
    isMale: 'O seu sexo é masculino',
    isFemale: 'O seu sexo é feminino',
    isUnique: 'É uma só pessoa para este site (que recebe um identificador válido apenas aí)',
    revealNationality: 'A sua nacionalidade (o site recebe-a)',
    revealBirthYear: 'O seu ano de nascimento (o site recebe-o)',
  },
  methods: { face_check: 'Verificação facial', eudi_wallet: 'Carteira EUDI' },
};
