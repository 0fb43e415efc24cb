import type { Copy } from './fr.ts';

/**
 * Irish copy (docs/embedding.md#languages): the singular imperative Irish interfaces use (Irish
 * has no formal "you"), An Caighdeán Oifigiúil spelling; "Tiachóg Eorpach um Chéannacht
 * Dhigiteach" for the EU Digital Identity Wallet.
 */
export const ga: Copy = {
  brand: 'Fíorú aoise',
  testMode: 'Mód tástála',
  creatingTitle: 'Á ullmhú',
  creatingHelp: 'Ní thógfaidh sé seo ach cúpla soicind.',
  waitingTitle: 'Scan an cód QR le do ghuthán',
  expiresIn: 'Éagfaidh an cód i gceann {n}\u00a0nóiméad',
  qrLabel: 'Cód QR le scanadh le do ghuthán chun d’aois a fhíorú',
  openHere: 'Oscail ar an ngléas seo',
  mobileTitle: 'Fíoraigh d’aois',
  mobileHelp: 'Treoróidh an aip thú i gceann cúpla soicind.',
  openApp: 'Oscail an aip',
  showQr: 'Taispeáin cód QR ina ionad sin',
  scannedTitle: 'Fíorú ar siúl',
  scannedHelp: 'Lean ar aghaidh ar do ghuthán.',
  completedTitle: 'Aois fíoraithe',
  completedHelp: 'Go raibh maith agat, tá gach rud réidh.',
  confirmingTitle: 'Á dheimhniú',
  confirmingHelp: 'Cúpla soicind eile…',
  redirectingTitle: 'Aois fíoraithe',
  redirectingHelp: 'Ag filleadh ar an suíomh…',
  failedTitle: 'Níor éirigh leis an bhfíorú',
  failedHelp: 'Is féidir leat triail eile a bhaint as láithreach.',
  cancelledTitle: 'Cealaíodh an fíorú',
  cancelledHelp: 'Is féidir leat tosú arís am ar bith.',
  expiredTitle: 'Chuaigh an cód QR in éag',
  expiredHelp: 'Taispeánfar cód nua go huathoibríoch.',
  errorTitle: 'Níl an fíorú ar fáil',
  errorHelp: 'Níl an tseirbhís ag freagairt faoi láthair.',
  configHelp: 'Níl fíorú aoise an tsuímh seo socraithe i gceart.',
  timeoutTitle: 'Níorbh fhéidir é a dheimhniú',
  timeoutHelp: 'Níorbh fhéidir leis an suíomh d’fhíorú a dheimhniú.',
  retry: 'Bain triail eile as',
  openWalletApp: 'Oscail d’aip fíoraithe aoise',
  openWallet: 'Oscail d’aip tiachóige',
  useWalletHere: 'Úsáid tiachóg ar an ngléas seo',
  walletFailedTitle: 'Níor roinn an tiachóg cruthúnas',
  walletFailedHelp: 'Bain triail eile as, nó scan an cód QR.',
  backToQr: 'Ar ais chuig an gcód QR',
  walletTitle: 'Scan le Tiachóg Eorpach um Chéannacht Dhigiteach',
};
