import type { PhoneCopy } from './index.ts';
import { plural } from './plural.ts';

/** Irish: the singular imperative Irish interfaces use, An Caighdeán Oifigiúil spelling. */
export const ga: PhoneCopy = {
  doneView: {
    title: 'Ar ais ó do thiachóg',
    checking: 'Á sheiceáil…',
    shared: { title: 'Cruthúnas roinnte', help: 'Fill ar an suíomh a d’iarr é: leanfaidh sé ar aghaidh leis féin.' },
    ended: {
      title: 'Tá an fíorú seo thart',
      help: 'Fill ar an suíomh a d’iarr é chun a fheiceáil conas a chríochnaigh sé.',
    },
    neutral: {
      title: 'Níl aon rud le taispeáint anseo',
      help: 'Níl an nasc seo bailí, nó úsáideadh cheana é. Fill ar an leathanach ónar tháinig tú.',
    },
  },
  title: 'Guthán tástála',
  pageTitle: 'Seiceáil aitheantais',
  sandboxMark: 'Mód tástála',
  sandboxNote:
    'Seasann an leathanach seo in ionad na haipe móibílí. Ní sheiceáiltear aitheantas fíor ar bith: ' +
    'roghnaigh pearsa tástála agus socraigh an toradh.',
  loading: 'An t-iarratas fíoraithe á oscailt…',
  askedBy: (audience) => `Iarrann ${audience} ort a chruthú:`,
  askedByBlind: 'Iarrann suíomh gan ainm ort a chruthú:',
  blindNote: (app) =>
    `Ní insítear don tseirbhís fíoraithe cén suíomh atá ann. Eisítear an cruthúnas don aip “${app}” amháin.`,
  minimalNote: 'Ní fhágann aon rud eile fút an guthán, ach na freagraí seo amháin.',
  expiresIn: (text) => `Rachaidh an t-iarratas in éag i gceann ${text}`,
  // Irish writes the noun as `nóiméad` after every number (its n takes neither lenition nor
  // eclipsis), so its five plural categories share one sentence
  minutesLeft: (n) =>
    plural('ga', n, {
      one: 'Rachaidh an t-iarratas in éag i gceann {n} nóiméad',
      two: 'Rachaidh an t-iarratas in éag i gceann {n} nóiméad',
      few: 'Rachaidh an t-iarratas in éag i gceann {n} nóiméad',
      many: 'Rachaidh an t-iarratas in éag i gceann {n} nóiméad',
      other: 'Rachaidh an t-iarratas in éag i gceann {n} nóiméad',
    }),
  outcomes: {
    approved: {
      title: 'Fíorú ceadaithe',
      help: 'Is féidir leat filleadh ar an suíomh: leanfaidh sé ar aghaidh leis féin.',
    },
    failed: { title: 'Theip ar an bhfíorú', help: 'Taispeánann an suíomh nár éirigh leis an seiceáil.' },
    cancelled: { title: 'Cealaíodh an fíorú', help: 'Taispeánann an suíomh gur chealaigh tú é.' },
  },
  problems: {
    MISSING_LINK: {
      title: 'Tá an nasc seo neamhiomlán',
      help: 'Scan an cód QR arís, nó úsáid an nasc “Oscail ar an ngléas seo” ón suíomh.',
    },
    NOT_FOUND: {
      title: 'Níl an nasc fíoraithe seo bailí',
      help: 'B’fhéidir go bhfuil botún ann nó nach ann dó a thuilleadh. Tosaigh arís ón suíomh.',
    },
    ALREADY_FINISHED: {
      title: 'Tá an fíorú seo críochnaithe cheana',
      help: 'Níl aon rud eile le déanamh anseo. Fill ar an suíomh.',
    },
    REQUEST_EXPIRED: {
      title: 'Chuaigh an t-iarratas fíoraithe seo in éag',
      help: 'Fill ar an suíomh: taispeánfaidh sé cód QR nua le scanadh.',
    },
    NETWORK_ERROR: { title: 'Ní féidir teacht ar an tseirbhís', help: 'Seiceáil an ceangal agus bain triail eile as.' },
    OTHER: {
      title: 'Tharla earráid',
      help: 'Bain triail eile as. Má tharlaíonn sé arís, tosaigh arís ón suíomh.',
    },
  },
  retry: 'Bain triail eile as',
  backToSite: 'Ar ais chuig an suíomh',
  scopes: {
    isAdult: 'Tá tú 18 mbliana d’aois nó níos sine',
    isFrench: 'Tá náisiúntacht na Fraince agat',
    isEU: 'Is saoránach de thír de chuid an Aontais thú',
    isMale: 'Is fireannach thú',
    isFemale: 'Is baineannach thú',
    isUnique: 'Is duine amháin thú don suíomh seo (faigheann sé aitheantóir nach n-oibríonn ach ansin)',
    revealNationality: 'Do náisiúntacht (faigheann an suíomh í)',
    revealBirthYear: 'Do bhliain bhreithe (faigheann an suíomh í)',
  },
  methodsTitle: 'Conas is mian leat é a chruthú?',
  useWalletHere: 'Úsáid tiachóg ar an nguthán seo',
  openWalletApp: 'Oscail d’aip tiachóige',
  continueWith: (p) => `Lean ar aghaidh le ${p}`,
  opening: (p) => `Á oscailt: ${p}…`,
  walletWaiting: 'Ag fanacht le do thiachóg…',
  notices: {
    refused: {
      title: 'Níorbh fhéidir an síniú isteach seo a dheimhniú',
      help: 'Níor roinneadh aon rud leis an suíomh. Bain triail eile as, nó roghnaigh bealach eile.',
    },
    wallet_declined: {
      title: 'Níor roinn do thiachóg cruthúnas',
      help: 'Níor roinneadh aon rud leis an suíomh. Bain triail eile as, nó roghnaigh bealach eile.',
    },
    wallet_refused: {
      title: 'Níorbh fhéidir cruthúnas do thiachóige a sheiceáil',
      help: 'Níor roinneadh aon rud leis an suíomh. Bain triail eile as, nó roghnaigh bealach eile.',
    },
  },
  endings: {
    approved: {
      title: 'Déanta — is féidir leat filleadh ar do ríomhaire',
      help: 'Leanfaidh an suíomh ar aghaidh leis féin. Má thosaigh tú ar an nguthán seo, fill ar an suíomh.',
    },
    failed: { title: 'Theip ar an bhfíorú', help: 'Taispeánann an suíomh nár éirigh leis an seiceáil.' },
    cancelled: {
      title: 'Cealaíodh an fíorú',
      help: 'Shocraigh tú gan do shonraí a roinnt. Taispeánann an suíomh gur cealaíodh an fíorú.',
    },
    claims_missing: {
      title: 'Níor roinn do sholáthraí aitheantais an méid a iarradh',
      help: 'Taispeánann an suíomh nár éirigh leis an seiceáil. Is féidir leat tosú arís ón suíomh.',
    },
    provider_error: {
      title: 'Níorbh fhéidir le do sholáthraí aitheantais an seiceáil a chríochnú',
      help: 'Níorbh fhéidir teacht air, nó ní raibh a fhreagra bailí. Tosaigh arís ón suíomh.',
    },
    ended: {
      title: 'Bhí an fíorú seo thart cheana',
      help: 'Críochnaíodh é nó chuaigh sé in éag le linn duit síniú isteach. Fill ar an suíomh.',
    },
    link_expired: {
      title: 'Tá an nasc sínithe isteach seo imithe in éag nó úsáidte cheana',
      help: 'Fill ar an suíomh agus tosaigh an fíorú arís.',
    },
  },
  demoAudience: 'Leathanach taispeántais na ndearthóirí',
};
