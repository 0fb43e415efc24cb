import type { PhoneCopy } from './index.ts';

/** English: the page's first language, a tool for testers. */
export const en: PhoneCopy = {
  title: 'Sandbox phone',
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
  personaLegend: 'Test persona',
  methodLegend: 'Verification method',
  methodOnlyWallet: 'This request is in EUDI wallet mode: only the wallet can answer it.',
  methodOnlyFace: 'This request is not in EUDI wallet mode: the wallet is not offered.',
  approve: 'Approve',
  fail: 'Fail the check',
  cancel: 'Cancel',
  sending: 'Sending…',
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
  methods: { face_check: 'Face check', eudi_wallet: 'EUDI wallet' },
};
