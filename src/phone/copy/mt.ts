import type { PhoneCopy } from './index.ts';
import { plural } from './plural.ts';

/**
 * Maltese: the courteous singular of Maltese public services, the Maltese apostrophe ’ and
 * quotation marks “…”, the widget's words (src/widget/copy/mt.ts). Sentences with a site's name
 * avoid a verb that would have to agree with its gender ("Talba minn ${audience}…").
 */
export const mt: PhoneCopy = {
  doneView: {
    title: 'Lura mill-kartiera tiegħek',
    checking: 'Qed niċċekkjaw…',
    shared: { title: 'Il-prova ntbagħtet', help: 'Mur lura għas-sit li talabha: ikompli waħdu.' },
    ended: { title: 'Din il-verifika ntemmet', help: 'Mur lura għas-sit li talabha biex tara kif spiċċat.' },
    neutral: {
      title: 'M’hemm xejn x’jintwera hawn',
      help: 'Dan il-link mhux validu jew diġà ntuża. Mur lura għall-paġna li ġejt minnha.',
    },
  },
  title: 'Mowbajl tat-test',
  pageTitle: 'Verifika tal-identità',
  sandboxMark: 'Modalità tat-test',
  sandboxNote:
    'Din il-paġna tieħu post l-app tal-mowbajl. Ma tiġi vverifikata l-ebda identità reali: agħżel persuna tat-test u ddeċiedi r-riżultat.',
  loading: 'Qed niftħu t-talba għall-verifika…',
  askedBy: (audience) => `Talba minn ${audience} biex tipprova dan li ġej:`,
  askedByBlind: 'Talba minn sit anonimu biex tipprova dan li ġej:',
  blindNote: (app) => `Is-servizz tal-verifika ma jkunx jaf liema sit hu. Il-prova tinħareġ biss għall-app “${app}”.`,
  minimalNote: 'Dawn it-tweġibiet biss joħorġu mill-mowbajl, xejn aktar dwarek.',
  expiresIn: (text) => `It-talba tiskadi fi żmien ${text}`,
  minutesLeft: (n) =>
    plural('mt', n, {
      one: 'It-talba tiskadi fi żmien {n} minuta',
      two: 'It-talba tiskadi fi żmien {n} minuti',
      few: 'It-talba tiskadi fi żmien {n} minuti',
      many: 'It-talba tiskadi fi żmien {n}-il minuta',
      other: 'It-talba tiskadi fi żmien {n} minuta',
    }),
  outcomes: {
    approved: { title: 'Il-verifika ġiet approvata', help: 'Tista’ tmur lura għas-sit: ikompli waħdu.' },
    failed: { title: 'Il-verifika ma rnexxietx', help: 'Is-sit juri li l-verifika ma rnexxietx.' },
    cancelled: { title: 'Il-verifika ġiet ikkanċellata', help: 'Is-sit juri li kkanċellajt.' },
  },
  problems: {
    MISSING_LINK: {
      title: 'Dan il-link mhux komplut',
      help: 'Erġa’ skennja l-kodiċi QR, jew uża l-link “Iftaħ fuq dan l-apparat” fuq is-sit.',
    },
    NOT_FOUND: {
      title: 'Dan il-link tal-verifika mhux validu',
      help: 'Forsi nkiteb ħażin jew ma għadux jeżisti. Erġa’ ibda mis-sit.',
    },
    ALREADY_FINISHED: {
      title: 'Din il-verifika diġà ntemmet',
      help: 'M’hemm xejn aktar x’tagħmel hawn. Mur lura għas-sit.',
    },
    REQUEST_EXPIRED: {
      title: 'Din it-talba għall-verifika skadiet',
      help: 'Mur lura għas-sit: se jurik kodiċi QR ġdid.',
    },
    NETWORK_ERROR: { title: 'Is-servizz ma jistax jintlaħaq', help: 'Iċċekkja l-konnessjoni u erġa’ pprova.' },
    OTHER: { title: 'Inqala’ xi żball', help: 'Erġa’ pprova. Jekk jibqa’ jiġri, erġa’ ibda mis-sit.' },
  },
  retry: 'Erġa’ pprova',
  backToSite: 'Lura għas-sit',
  scopes: {
    isAdult: 'Għandek 18-il sena jew aktar',
    isFrench: 'Għandek iċ-ċittadinanza Franċiża',
    isEU: 'Għandek iċ-ċittadinanza ta’ pajjiż tal-UE',
    isMale: 'Is-sess tiegħek huwa maskili',
    isFemale: 'Is-sess tiegħek huwa femminili',
    isUnique: 'Għal dan is-sit, inti persuna waħda biss (jirċievi identifikatur li jiswa hemm biss)',
    revealNationality: 'Iċ-ċittadinanza tiegħek (is-sit jirċeviha)',
    revealBirthYear: 'Is-sena tat-twelid tiegħek (is-sit jirċeviha)',
  },
  methodsTitle: 'Kif trid tipprova dan?',
  useWalletHere: 'Uża kartiera fuq dan il-mowbajl',
  openWalletApp: 'Iftaħ l-app tal-kartiera tiegħek',
  continueWith: (p) => `Kompli permezz ta’ ${p}`,
  opening: (p) => `Qed niftħu ${p}…`,
  walletWaiting: 'Qed nistennew il-kartiera tiegħek…',
  notices: {
    refused: {
      title: 'Ma stajniex nikkonfermaw dan il-login',
      help: 'Ma ntbagħat xejn lis-sit. Erġa’ pprova, jew agħżel mod ieħor.',
    },
    wallet_declined: {
      title: 'Il-kartiera tiegħek ma qasmitx prova',
      help: 'Ma ntbagħat xejn lis-sit. Erġa’ pprova, jew agħżel mod ieħor.',
    },
    wallet_refused: {
      title: 'Il-prova tal-kartiera tiegħek ma setgħetx tiġi vverifikata',
      help: 'Ma ntbagħat xejn lis-sit. Erġa’ pprova, jew agħżel mod ieħor.',
    },
  },
  endings: {
    approved: {
      title: 'Lest – tista’ tmur lura għall-kompjuter tiegħek',
      help: 'Is-sit ikompli waħdu. Jekk bdejt fuq dan il-mowbajl, sempliċement mur lura għas-sit.',
    },
    failed: { title: 'Il-verifika ma rnexxietx', help: 'Is-sit juri li l-verifika ma rnexxietx.' },
    cancelled: {
      title: 'Il-verifika ġiet ikkanċellata',
      help: 'Għażilt li ma taqsamx id-dettalji tiegħek. Is-sit juri li l-verifika ġiet ikkanċellata.',
    },
    claims_missing: {
      title: 'Il-fornitur tal-identità tiegħek ma qasamx dak li ntalab',
      help: 'Is-sit juri li l-verifika ma rnexxietx. Tista’ terġa’ tibda mis-sit.',
    },
    provider_error: {
      title: 'Il-fornitur tal-identità tiegħek ma setax ilesti l-verifika',
      help: 'Ma setax jintlaħaq, jew it-tweġiba tiegħu ma kinitx valida. Erġa’ ibda mis-sit.',
    },
    ended: {
      title: 'Din il-verifika kienet diġà ntemmet',
      help: 'Intemmet jew skadiet waqt li kont qed tidħol. Mur lura għas-sit.',
    },
    link_expired: {
      title: 'Dan il-link tal-login skada jew diġà ntuża',
      help: 'Mur lura għas-sit u erġa’ ibda l-verifika.',
    },
  },
  demoAudience: 'Il-paġna demo tad-diżinjaturi',
};
