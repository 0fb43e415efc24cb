import type { SandboxCopy } from './index.ts';

/** Portuguese, as written in Portugal: the formal third person. */
export const pt: SandboxCopy = {
  personaLegend: 'Perfil de teste',
  methodLegend: 'Método de verificação',
  methodOnlyWallet: 'Este pedido está no modo carteira EUDI: só a carteira lhe pode responder.',
  methodOnlyFace: 'Este pedido não está no modo carteira EUDI: a carteira não é proposta.',
  credentialLegend: 'Credencial na carteira de teste',
  credentials: {
    av: 'Prova de idade',
    pid: 'PID europeu (identidade)',
    'pid-no-age': 'PID europeu sem age_over_18 (data de nascimento)',
    mdl: 'Carta de condução móvel',
    'pid-sd-jwt': 'PID europeu como SD-JWT VC',
    'pid-sd-jwt-revoked': 'PID europeu como SD-JWT VC, revogado',
  },
  approve: 'Aprovar',
  fail: 'Fazer falhar a verificação',
  cancel: 'Cancelar',
  sending: 'A enviar…',
  methods: { face_check: 'Verificação facial', eudi_wallet: 'Carteira EUDI' },
  sandboxSection: 'Ou responda aqui com um perfil de teste',
  personas: {
    'fr-adult-m': 'Lucas Martin — francês, 34 anos, homem',
    'fr-adult-f': 'Camille Dubois — francesa, 28 anos, mulher',
    'de-adult': 'Jonas Becker — alemão, 45 anos, homem',
    'us-adult': 'Emily Carter — norte-americana, 31 anos, mulher',
    'fr-minor': 'Léa Petit — francesa, 16 anos, mulher',
    'turns-18-today': 'Hugo Bernard — francês, faz 18 anos hoje, homem',
    'turns-18-tomorrow': 'Chloé Moreau — francesa, faz 18 anos amanhã, mulher',
  },
};
