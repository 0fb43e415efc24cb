import type { PhoneCopy } from './index.ts';
import { plural } from './plural.ts';

/** Portuguese, as written in Portugal: the formal third person. */
export const pt: PhoneCopy = {
  doneView: {
    title: 'De volta da sua carteira',
    checking: 'A verificar…',
    shared: { title: 'Prova partilhada', help: 'Volte à página que a pediu: continua sozinha.' },
    ended: { title: 'Esta verificação terminou', help: 'Volte à página que a pediu para ver como terminou.' },
    neutral: {
      title: 'Nada a mostrar aqui',
      help: 'Esta ligação não é válida ou já foi usada. Volte à página de onde veio.',
    },
  },
  title: 'Telemóvel de teste',
  pageTitle: 'Verificação de identidade',
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
  minutesLeft: (n) =>
    plural('pt', n, {
      one: 'O pedido expira dentro de {n} minuto',
      many: 'O pedido expira dentro de {n} de minutos',
      other: 'O pedido expira dentro de {n} minutos',
    }),
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
  backToSite: 'Voltar ao site',
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
  methodsTitle: 'Como pretende comprovar?',
  useWalletHere: 'Usar uma carteira neste telemóvel',
  openWalletApp: 'Abrir a sua aplicação de carteira',
  continueWith: (p) => `Continuar com ${p}`,
  opening: (p) => `A abrir ${p}…`,
  walletWaiting: 'A aguardar a sua carteira…',
  notices: {
    refused: {
      title: 'Não foi possível confirmar este início de sessão',
      help: 'Nada foi partilhado com o site. Tente novamente ou escolha outra forma.',
    },
    wallet_declined: {
      title: 'A sua carteira não partilhou nenhuma prova',
      help: 'Nada foi partilhado com o site. Tente novamente ou escolha outra forma.',
    },
    wallet_refused: {
      title: 'Não foi possível verificar a prova da sua carteira',
      help: 'Nada foi partilhado com o site. Tente novamente ou escolha outra forma.',
    },
  },
  endings: {
    approved: {
      title: 'Concluído: pode voltar ao seu computador',
      help: 'O site continua sozinho. Se começou neste telemóvel, basta voltar ao site.',
    },
    failed: { title: 'Verificação falhada', help: 'O site indica que a verificação não foi bem-sucedida.' },
    cancelled: {
      title: 'Verificação cancelada',
      help: 'Optou por não partilhar os seus dados. O site indica que a verificação foi cancelada.',
    },
    claims_missing: {
      title: 'O seu fornecedor de identidade não partilhou o que foi pedido',
      help: 'O site indica que a verificação não foi bem-sucedida. Pode recomeçar a partir do site.',
    },
    provider_error: {
      title: 'O seu fornecedor de identidade não conseguiu concluir a verificação',
      help: 'Não foi possível contactá-lo ou a resposta não era válida. Recomece a partir do site.',
    },
    ended: {
      title: 'Esta verificação já tinha terminado',
      help: 'Terminou ou expirou enquanto iniciava sessão. Volte ao site.',
    },
    link_expired: {
      title: 'Esta ligação de início de sessão expirou ou já foi utilizada',
      help: 'Volte ao site e recomece a verificação.',
    },
  },
  demoAudience: 'A página de demonstração para designers',
};
