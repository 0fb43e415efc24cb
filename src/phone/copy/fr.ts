import type { PhoneCopy } from './index.ts';
import { plural } from './plural.ts';

/** French: vouvoiement and French typography (a non-breaking space before « : », inside « »). */
export const fr: PhoneCopy = {
  doneView: {
    title: 'Retour de votre portefeuille',
    checking: 'Vérification…',
    shared: { title: 'Preuve transmise', help: 'Revenez à la page qui l’a demandée : elle continue d’elle-même.' },
    ended: {
      title: 'Cette vérification est terminée',
      help: 'Revenez à la page qui l’a demandée pour voir son issue.',
    },
    neutral: {
      title: 'Rien à afficher ici',
      help: 'Ce lien n’est pas valide ou a déjà servi. Revenez à la page d’où vous venez.',
    },
  },
  title: 'Téléphone de test',
  pageTitle: 'Vérification d’identité',
  sandboxMark: 'Mode test',
  sandboxNote:
    'Cette page remplace l’application mobile. Aucune identité réelle n’est vérifiée\u00a0: ' +
    'choisissez un profil de test et décidez du résultat.',
  loading: 'Ouverture de la demande de vérification…',
  askedBy: (audience) => `${audience} vous demande de prouver\u00a0:`,
  askedByBlind: 'Un site anonyme vous demande de prouver\u00a0:',
  blindNote: (app) =>
    'Le service de vérification ne sait pas de quel site il s’agit. ' +
    `La preuve est émise pour l’application «\u00a0${app}\u00a0» uniquement.`,
  minimalNote: 'Seules ces réponses quittent le téléphone, rien d’autre à votre sujet.',
  expiresIn: (text) => `La demande expire dans ${text}`,
  minutesLeft: (n) =>
    plural('fr', n, {
      one: 'La demande expire dans {n} minute',
      many: 'La demande expire dans {n} de minutes',
      other: 'La demande expire dans {n} minutes',
    }),
  outcomes: {
    approved: {
      title: 'Vérification approuvée',
      help: 'Vous pouvez revenir sur le site\u00a0: il continue tout seul.',
    },
    failed: { title: 'Vérification échouée', help: 'Le site indique que la vérification n’a pas abouti.' },
    cancelled: { title: 'Vérification annulée', help: 'Le site indique que vous avez annulé.' },
  },
  problems: {
    MISSING_LINK: {
      title: 'Ce lien est incomplet',
      help: 'Scannez à nouveau le QR code, ou utilisez le lien «\u00a0Ouvrir sur cet appareil\u00a0» du site.',
    },
    NOT_FOUND: {
      title: 'Ce lien de vérification n’est pas valide',
      help: 'Il est peut-être mal recopié ou n’existe plus. Recommencez depuis le site.',
    },
    ALREADY_FINISHED: {
      title: 'Cette vérification est déjà terminée',
      help: 'Plus rien à faire ici. Revenez sur le site.',
    },
    REQUEST_EXPIRED: {
      title: 'Cette demande de vérification a expiré',
      help: 'Revenez sur le site\u00a0: il affiche un nouveau QR code à scanner.',
    },
    NETWORK_ERROR: { title: 'Le service est injoignable', help: 'Vérifiez la connexion et réessayez.' },
    OTHER: {
      title: 'Une erreur s’est produite',
      help: 'Réessayez. Si le problème persiste, recommencez depuis le site.',
    },
  },
  retry: 'Réessayer',
  backToSite: 'Revenir au site',
  scopes: {
    isAdult: 'Vous avez 18 ans ou plus',
    isFrench: 'Vous avez la nationalité française',
    isEU: 'Vous avez la nationalité d’un pays de l’UE',
    isMale: 'Votre sexe est masculin',
    isFemale: 'Votre sexe est féminin',
    isUnique:
      'Vous êtes une seule et même personne pour ce site (il reçoit un identifiant valable chez lui uniquement)',
    revealNationality: 'Votre nationalité (le site la reçoit)',
    revealBirthYear: 'Votre année de naissance (le site la reçoit)',
  },
  methodsTitle: 'Comment voulez-vous le prouver\u00a0?',
  useWalletHere: 'Utiliser un portefeuille sur ce téléphone',
  openWalletApp: 'Ouvrir votre application portefeuille',
  continueWith: (p) => `Continuer avec ${p}`,
  opening: (p) => `Ouverture de ${p}…`,
  walletWaiting: 'En attente de votre portefeuille…',
  notices: {
    refused: {
      title: 'Nous n’avons pas pu confirmer cette connexion',
      help: 'Rien n’a été transmis au site. Réessayez, ou choisissez un autre moyen.',
    },
    wallet_declined: {
      title: 'Votre portefeuille n’a partagé aucune preuve',
      help: 'Rien n’a été transmis au site. Réessayez, ou choisissez un autre moyen.',
    },
    wallet_refused: {
      title: 'La preuve de votre portefeuille n’a pas pu être vérifiée',
      help: 'Rien n’a été transmis au site. Réessayez, ou choisissez un autre moyen.',
    },
  },
  endings: {
    approved: {
      title: 'C’est fait — vous pouvez revenir sur votre ordinateur',
      help: 'Le site continue tout seul. Si vous avez commencé sur ce téléphone, revenez simplement au site.',
    },
    failed: { title: 'Vérification échouée', help: 'Le site indique que la vérification n’a pas abouti.' },
    cancelled: {
      title: 'Vérification annulée',
      help: 'Vous avez choisi de ne pas partager vos informations. Le site indique que la vérification a été annulée.',
    },
    claims_missing: {
      title: 'Votre fournisseur d’identité n’a pas transmis ce qui était demandé',
      help: 'Le site indique que la vérification n’a pas abouti. Vous pouvez recommencer depuis le site.',
    },
    provider_error: {
      title: 'Votre fournisseur d’identité n’a pas pu terminer la vérification',
      help: 'Il était injoignable, ou sa réponse n’était pas valide. Recommencez depuis le site.',
    },
    ended: {
      title: 'Cette vérification était déjà terminée',
      help: 'Elle s’est terminée ou a expiré pendant votre connexion. Revenez sur le site.',
    },
    link_expired: {
      title: 'Ce lien de connexion a expiré ou a déjà servi',
      help: 'Revenez sur le site et recommencez la vérification.',
    },
  },
  demoAudience: 'La page de démonstration des designers',
};
