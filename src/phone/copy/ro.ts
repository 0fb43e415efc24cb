import type { PhoneCopy } from './index.ts';
import { plural } from './plural.ts';

/** Romanian: the polite plural, Romanian quotation marks, ș and ț with the comma below. */
export const ro: PhoneCopy = {
  doneView: {
    title: 'Înapoi din portofel',
    checking: 'Se verifică…',
    shared: { title: 'Dovada a fost transmisă', help: 'Reveniți pe site-ul care a cerut-o: acesta continuă singur.' },
    ended: {
      title: 'Această verificare s-a încheiat',
      help: 'Reveniți pe site-ul care a cerut-o pentru a vedea cum s-a încheiat.',
    },
    neutral: {
      title: 'Nimic de afișat aici',
      help: 'Acest link nu este valid sau a fost deja folosit. Reveniți la pagina de pe care ați venit.',
    },
  },
  title: 'Telefon de test',
  pageTitle: 'Verificarea identității',
  sandboxMark: 'Mod de testare',
  sandboxNote:
    'Această pagină ține locul aplicației mobile. Nu se verifică nicio identitate reală: ' +
    'alegeți o persoană de test și decideți rezultatul.',
  loading: 'Se deschide cererea de verificare…',
  askedBy: (audience) => `${audience} vă cere să dovediți:`,
  askedByBlind: 'Un site anonim vă cere să dovediți:',
  blindNote: (app) =>
    `Serviciul de verificare nu află despre ce site este vorba. Dovada este emisă doar pentru aplicația „${app}”.`,
  minimalNote: 'Doar aceste răspunsuri părăsesc telefonul, nimic altceva despre dumneavoastră.',
  expiresIn: (text) => `Cererea expiră în ${text}`,
  minutesLeft: (n) =>
    plural('ro', n, {
      one: 'Cererea expiră în {n} minut',
      few: 'Cererea expiră în {n} minute',
      other: 'Cererea expiră în {n} de minute',
    }),
  outcomes: {
    approved: { title: 'Verificare aprobată', help: 'Puteți reveni pe site: acesta continuă singur.' },
    failed: { title: 'Verificarea nu a reușit', help: 'Site-ul arată că verificarea nu a reușit.' },
    cancelled: { title: 'Verificare anulată', help: 'Site-ul arată că ați anulat verificarea.' },
  },
  problems: {
    MISSING_LINK: {
      title: 'Acest link este incomplet',
      help: 'Scanați din nou codul QR sau folosiți pe site linkul „Deschideți pe acest dispozitiv”.',
    },
    NOT_FOUND: {
      title: 'Acest link de verificare nu este valid',
      help: 'Poate a fost copiat greșit sau nu mai există. Reîncepeți de pe site.',
    },
    ALREADY_FINISHED: {
      title: 'Această verificare este deja încheiată',
      help: 'Nu mai aveți nimic de făcut aici. Reveniți pe site.',
    },
    REQUEST_EXPIRED: {
      title: 'Această cerere de verificare a expirat',
      help: 'Reveniți pe site: acolo apare un nou cod QR de scanat.',
    },
    NETWORK_ERROR: { title: 'Serviciul nu poate fi accesat', help: 'Verificați conexiunea și încercați din nou.' },
    OTHER: { title: 'A apărut o problemă', help: 'Încercați din nou. Dacă problema persistă, reîncepeți de pe site.' },
  },
  retry: 'Încercați din nou',
  backToSite: 'Înapoi la site',
  scopes: {
    isAdult: 'Aveți cel puțin 18 ani',
    isFrench: 'Aveți cetățenie franceză',
    isEU: 'Aveți cetățenia unei țări din UE',
    isMale: 'Sexul dumneavoastră este masculin',
    isFemale: 'Sexul dumneavoastră este feminin',
    isUnique: 'Sunteți una și aceeași persoană pentru acest site (primește un identificator valabil doar acolo)',
    revealNationality: 'Cetățenia dumneavoastră (site-ul o primește)',
    revealBirthYear: 'Anul nașterii dumneavoastră (site-ul îl primește)',
  },
  methodsTitle: 'Cum doriți să dovediți?',
  useWalletHere: 'Folosiți un portofel pe acest telefon',
  openWalletApp: 'Deschideți portofelul',
  continueWith: (p) => `Continuați cu ${p}`,
  opening: (p) => `Se deschide ${p}…`,
  walletWaiting: 'Se așteaptă portofelul…',
  notices: {
    refused: {
      title: 'Nu am putut confirma această autentificare',
      help: 'Site-ului nu i s-a transmis nimic. Încercați din nou sau alegeți altă metodă.',
    },
    wallet_declined: {
      title: 'Portofelul nu a transmis nicio dovadă',
      help: 'Site-ului nu i s-a transmis nimic. Încercați din nou sau alegeți altă metodă.',
    },
    wallet_refused: {
      title: 'Dovada din portofel nu a putut fi verificată',
      help: 'Site-ului nu i s-a transmis nimic. Încercați din nou sau alegeți altă metodă.',
    },
  },
  endings: {
    approved: {
      title: 'Gata – puteți reveni la computer',
      help: 'Site-ul continuă singur. Dacă ați început pe acest telefon, reveniți pur și simplu pe site.',
    },
    failed: { title: 'Verificarea nu a reușit', help: 'Site-ul arată că verificarea nu a reușit.' },
    cancelled: {
      title: 'Verificare anulată',
      help: 'Ați ales să nu vă partajați datele. Site-ul arată că verificarea a fost anulată.',
    },
    claims_missing: {
      title: 'Furnizorul de identitate nu a transmis ce s-a cerut',
      help: 'Site-ul arată că verificarea nu a reușit. Puteți reîncepe de pe site.',
    },
    provider_error: {
      title: 'Furnizorul de identitate nu a putut finaliza verificarea',
      help: 'Nu a putut fi accesat sau răspunsul său nu a fost valid. Reîncepeți de pe site.',
    },
    ended: {
      title: 'Această verificare se încheiase deja',
      help: 'A fost finalizată sau a expirat în timp ce vă autentificați. Reveniți pe site.',
    },
    link_expired: {
      title: 'Acest link de autentificare a expirat sau a fost deja folosit',
      help: 'Reveniți pe site și reîncepeți verificarea.',
    },
  },
  demoAudience: 'Pagina demo pentru designeri',
};
