import type { PhoneCopy } from './index.ts';
import { plural } from './plural.ts';

/** Finnish: the plain imperative Finnish services use, Finnish quotation marks ”…”. */
export const fi: PhoneCopy = {
  doneView: {
    title: 'Takaisin lompakosta',
    checking: 'Tarkistetaan…',
    shared: { title: 'Todiste jaettu', help: 'Palaa sivustolle, joka sitä pyysi: se jatkaa itsestään.' },
    ended: {
      title: 'Tämä todentaminen on päättynyt',
      help: 'Palaa sivustolle, joka sitä pyysi, niin näet, miten se päättyi.',
    },
    neutral: {
      title: 'Täällä ei ole mitään näytettävää',
      help: 'Linkki ei kelpaa tai se on jo käytetty. Palaa sivulle, jolta tulit.',
    },
  },
  title: 'Testipuhelin',
  pageTitle: 'Henkilöllisyyden tarkistus',
  sandboxMark: 'Testitila',
  sandboxNote:
    'Tämä sivu toimii mobiilisovelluksen sijaisena. Oikeaa henkilöllisyyttä ei tarkisteta: valitse testihenkilö ja päätä lopputulos.',
  loading: 'Avataan todentamispyyntöä…',
  askedBy: (audience) => `${audience} pyytää sinua todistamaan:`,
  askedByBlind: 'Nimetön sivusto pyytää sinua todistamaan:',
  blindNote: (app) =>
    `Todentamispalvelulle ei kerrota, mikä sivusto on kyseessä. Todiste annetaan vain sovellukselle ”${app}”.`,
  minimalNote: 'Puhelimesta lähtevät vain nämä vastaukset, ei mitään muuta sinusta.',
  expiresIn: (text) => `Pyyntö on voimassa vielä ${text}`,
  minutesLeft: (n) =>
    plural('fi', n, { one: 'Pyyntö on voimassa vielä {n} minuutin', other: 'Pyyntö on voimassa vielä {n} minuuttia' }),
  outcomes: {
    approved: { title: 'Todentaminen hyväksytty', help: 'Voit palata sivustolle: se jatkaa itsestään.' },
    failed: { title: 'Todentaminen epäonnistui', help: 'Sivusto näyttää, että tarkistus ei onnistunut.' },
    cancelled: { title: 'Todentaminen peruttu', help: 'Sivusto näyttää, että peruit sen.' },
  },
  problems: {
    MISSING_LINK: {
      title: 'Linkki on puutteellinen',
      help: 'Skannaa QR-koodi uudelleen tai käytä sivuston linkkiä ”Avaa tällä laitteella”.',
    },
    NOT_FOUND: {
      title: 'Todentamislinkki ei kelpaa',
      help: 'Se on ehkä kirjoitettu väärin tai sitä ei enää ole. Aloita alusta sivustolla.',
    },
    ALREADY_FINISHED: {
      title: 'Tämä todentaminen on jo valmis',
      help: 'Täällä ei ole enää tehtävää. Palaa sivustolle.',
    },
    REQUEST_EXPIRED: {
      title: 'Todentamispyyntö on vanhentunut',
      help: 'Palaa sivustolle: siellä näkyy uusi skannattava QR-koodi.',
    },
    NETWORK_ERROR: { title: 'Palveluun ei saada yhteyttä', help: 'Tarkista yhteys ja yritä uudelleen.' },
    OTHER: {
      title: 'Jokin meni vikaan',
      help: 'Yritä uudelleen. Jos ongelma toistuu, aloita alusta sivustolla.',
    },
  },
  retry: 'Yritä uudelleen',
  backToSite: 'Takaisin sivustolle',
  scopes: {
    isAdult: 'Olet vähintään 18-vuotias',
    isFrench: 'Olet Ranskan kansalainen',
    isEU: 'Olet jonkin EU-maan kansalainen',
    isMale: 'Sukupuolesi on mies',
    isFemale: 'Sukupuolesi on nainen',
    isUnique: 'Olet sivustolle yksi ja sama henkilö (se saa tunnisteen, joka toimii vain siellä)',
    revealNationality: 'Kansalaisuutesi (sivusto saa sen tietoonsa)',
    revealBirthYear: 'Syntymävuotesi (sivusto saa sen tietoonsa)',
  },
  methodsTitle: 'Miten haluat todistaa sen?',
  useWalletHere: 'Käytä lompakkoa tällä puhelimella',
  openWalletApp: 'Avaa lompakkosovellus',
  continueWith: (p) => `Jatka palvelulla ${p}`,
  opening: (p) => `Avataan: ${p}…`,
  walletWaiting: 'Odotetaan lompakkoasi…',
  notices: {
    refused: {
      title: 'Kirjautumista ei voitu vahvistaa',
      help: 'Sivustolle ei jaettu mitään. Yritä uudelleen tai valitse toinen tapa.',
    },
    wallet_declined: {
      title: 'Lompakkosi ei jakanut todistetta',
      help: 'Sivustolle ei jaettu mitään. Yritä uudelleen tai valitse toinen tapa.',
    },
    wallet_refused: {
      title: 'Lompakkosi todistetta ei voitu tarkistaa',
      help: 'Sivustolle ei jaettu mitään. Yritä uudelleen tai valitse toinen tapa.',
    },
  },
  endings: {
    approved: {
      title: 'Valmis – voit palata tietokoneellesi',
      help: 'Sivusto jatkaa itsestään. Jos aloitit tällä puhelimella, palaa vain sivustolle.',
    },
    failed: { title: 'Todentaminen epäonnistui', help: 'Sivusto näyttää, että tarkistus ei onnistunut.' },
    cancelled: {
      title: 'Todentaminen peruttu',
      help: 'Päätit olla jakamatta tietojasi. Sivusto näyttää, että todentaminen peruttiin.',
    },
    claims_missing: {
      title: 'Tunnistuspalvelu ei jakanut pyydettyjä tietoja',
      help: 'Sivusto näyttää, että tarkistus ei onnistunut. Voit aloittaa alusta sivustolla.',
    },
    provider_error: {
      title: 'Tunnistuspalvelu ei voinut viedä tarkistusta loppuun',
      help: 'Siihen ei saatu yhteyttä tai sen vastaus ei kelvannut. Aloita alusta sivustolla.',
    },
    ended: {
      title: 'Tämä todentaminen oli jo päättynyt',
      help: 'Se valmistui tai vanheni kirjautumisesi aikana. Palaa sivustolle.',
    },
    link_expired: {
      title: 'Kirjautumislinkki on vanhentunut tai jo käytetty',
      help: 'Palaa sivustolle ja aloita todentaminen uudelleen.',
    },
  },
  demoAudience: 'Suunnittelijoiden esittelysivu',
};
