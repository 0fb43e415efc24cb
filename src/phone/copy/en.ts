import type { PhoneCopy } from './index.ts';
import { plural } from './plural.ts';

/** English: the page's first language, a tool for testers. */
export const en: PhoneCopy = {
  doneView: {
    title: 'Back from your wallet',
    checking: 'Checking…',
    shared: { title: 'Proof shared', help: 'Go back to the page that asked: it continues by itself.' },
    ended: { title: 'This verification is over', help: 'Go back to the page that asked to see how it ended.' },
    neutral: {
      title: 'Nothing to show here',
      help: 'This link is not valid or was already used. Go back to the page you came from.',
    },
  },
  title: 'Sandbox phone',
  pageTitle: 'Identity check',
  sandboxMark: 'Test mode',
  sandboxNote:
    'This page stands in for the mobile app. No real identity is checked: pick a test persona and decide the outcome.',
  loading: 'Opening the verification request…',
  askedBy: (audience) => `${audience} asks you to prove:`,
  askedByBlind: 'An anonymous site asks you to prove:',
  blindNote: (app) =>
    `The verification service is not told which site this is. The proof is issued for the app “${app}” only.`,
  minimalNote: 'Only these answers leave the phone, nothing else about you.',
  expiresIn: (text) => `Request expires in ${text}`,
  minutesLeft: (n) =>
    plural('en', n, { one: 'Request expires in {n} minute', other: 'Request expires in {n} minutes' }),
  outcomes: {
    approved: { title: 'Verification approved', help: 'You can go back to the site: it continues by itself.' },
    failed: { title: 'Verification failed', help: 'The site shows that the check did not succeed.' },
    cancelled: { title: 'Verification cancelled', help: 'The site shows that you cancelled.' },
  },
  problems: {
    MISSING_LINK: {
      title: 'This link is incomplete',
      help: 'Scan the QR code again, or use the “open on this device” link from the site.',
    },
    NOT_FOUND: {
      title: 'This verification link is not valid',
      help: 'It may be mistyped or no longer exist. Start again from the site.',
    },
    ALREADY_FINISHED: {
      title: 'This verification is already finished',
      help: 'Nothing more to do here. Go back to the site.',
    },
    REQUEST_EXPIRED: {
      title: 'This verification request has expired',
      help: 'Go back to the site: it shows a new QR code to scan.',
    },
    NETWORK_ERROR: { title: 'The service cannot be reached', help: 'Check the connection and try again.' },
    OTHER: { title: 'Something went wrong', help: 'Try again. If it keeps happening, start again from the site.' },
  },
  retry: 'Try again',
  backToSite: 'Back to the site',
  scopes: {
    isAdult: 'You are 18 or older',
    isFrench: 'You have French nationality',
    isEU: 'You are a citizen of an EU country',
    isMale: 'Your sex is male',
    isFemale: 'Your sex is female',
    isUnique: 'You are one single person for this site (it gets an identifier that works there only)',
    revealNationality: 'Your nationality (the site receives it)',
    revealBirthYear: 'Your year of birth (the site receives it)',
  },
  methodsTitle: 'How do you want to prove it?',
  useWalletHere: 'Use a wallet on this phone',
  openWalletApp: 'Open your wallet app',
  continueWith: (p) => `Continue with ${p}`,
  opening: (p) => `Opening ${p}…`,
  walletWaiting: 'Waiting for your wallet…',
  notices: {
    refused: {
      title: 'We could not confirm this sign-in',
      help: 'Nothing was shared with the site. Try again, or choose another way.',
    },
    wallet_declined: {
      title: 'Your wallet did not share a proof',
      help: 'Nothing was shared with the site. Try again, or choose another way.',
    },
    wallet_refused: {
      title: 'Your wallet’s proof could not be checked',
      help: 'Nothing was shared with the site. Try again, or choose another way.',
    },
  },
  endings: {
    approved: {
      title: 'Done — you can go back to your computer',
      help: 'The site continues by itself. If you started on this phone, just go back to the site.',
    },
    failed: { title: 'Verification failed', help: 'The site shows that the check did not succeed.' },
    cancelled: {
      title: 'Verification cancelled',
      help: 'You chose not to share your details. The site shows that the verification was cancelled.',
    },
    claims_missing: {
      title: 'Your identity provider did not share what was asked',
      help: 'The site shows that the check did not succeed. You can start again from the site.',
    },
    provider_error: {
      title: 'Your identity provider could not complete the check',
      help: 'It could not be reached, or its answer was not valid. Start again from the site.',
    },
    ended: {
      title: 'This verification had already ended',
      help: 'It was finished or expired while you were signing in. Go back to the site.',
    },
    link_expired: {
      title: 'This sign-in link has expired or was already used',
      help: 'Go back to the site and start the verification again.',
    },
  },
  demoAudience: 'The designers’ demo page',
};
