import type { SandboxCopy } from './index.ts';

/** French: vouvoiement and French typography (a non-breaking space before « : », inside « »). */
export const fr: SandboxCopy = {
  personaLegend: 'Profil de test',
  methodLegend: 'Méthode de vérification',
  methodOnlyWallet: 'Cette demande est en mode portefeuille EUDI\u00a0: seul le portefeuille peut y répondre.',
  methodOnlyFace: 'Cette demande n’est pas en mode portefeuille EUDI\u00a0: le portefeuille n’est pas proposé.',
  credentialLegend: 'Justificatif dans le portefeuille de test',
  credentials: {
    av: 'Preuve d’âge',
    pid: 'PID européen (identité)',
    'pid-no-age': 'PID européen sans age_over_18 (date de naissance)',
    mdl: 'Permis de conduire mobile',
    'pid-sd-jwt': 'PID européen en SD-JWT VC',
    'pid-sd-jwt-revoked': 'PID européen en SD-JWT VC, révoqué',
  },
  approve: 'Approuver',
  fail: 'Faire échouer',
  cancel: 'Annuler',
  sending: 'Envoi…',
  methods: { face_check: 'Vérification faciale', eudi_wallet: 'Portefeuille EUDI' },
  sandboxSection: 'Ou répondez ici avec un profil de test',
  personas: {
    'fr-adult-m': 'Lucas Martin — Français, 34 ans, homme',
    'fr-adult-f': 'Camille Dubois — Française, 28 ans, femme',
    'de-adult': 'Jonas Becker — Allemand, 45 ans, homme',
    'us-adult': 'Emily Carter — Américaine, 31 ans, femme',
    'fr-minor': 'Léa Petit — Française, 16 ans, femme',
    'turns-18-today': 'Hugo Bernard — Français, 18 ans aujourd’hui, homme',
    'turns-18-tomorrow': 'Chloé Moreau — Française, 18 ans demain, femme',
  },
};
