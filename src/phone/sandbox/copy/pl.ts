import type { SandboxCopy } from './index.ts';

/** Polish: impersonal sentences, imperative buttons. */
export const pl: SandboxCopy = {
  personaLegend: 'Osoba testowa',
  methodLegend: 'Metoda weryfikacji',
  methodOnlyWallet: 'To żądanie działa w trybie portfela EUDI: odpowiedzieć może tylko portfel.',
  methodOnlyFace: 'To żądanie nie działa w trybie portfela EUDI: portfel nie jest oferowany.',
  credentialLegend: 'Poświadczenie w portfelu testowym',
  credentials: {
    av: 'Potwierdzenie wieku',
    pid: 'PID UE (tożsamość)',
    'pid-no-age': 'PID UE bez age_over_18 (data urodzenia)',
    mdl: 'Mobilne prawo jazdy',
    'pid-sd-jwt': 'PID UE jako SD-JWT VC',
    'pid-sd-jwt-revoked': 'PID UE jako SD-JWT VC, unieważniony',
  },
  approve: 'Zatwierdź',
  fail: 'Odrzuć weryfikację',
  cancel: 'Anuluj',
  sending: 'Wysyłanie…',
  methods: { face_check: 'Weryfikacja twarzy', eudi_wallet: 'Portfel EUDI' },
  sandboxSection: 'Albo odpowiedź tutaj jako osoba testowa',
  personas: {
    'fr-adult-m': 'Lucas Martin — Francuz, 34 lata, mężczyzna',
    'fr-adult-f': 'Camille Dubois — Francuzka, 28 lat, kobieta',
    'de-adult': 'Jonas Becker — Niemiec, 45 lat, mężczyzna',
    'us-adult': 'Emily Carter — Amerykanka, 31 lat, kobieta',
    'fr-minor': 'Léa Petit — Francuzka, 16 lat, kobieta',
    'turns-18-today': 'Hugo Bernard — Francuz, kończy dziś 18 lat, mężczyzna',
    'turns-18-tomorrow': 'Chloé Moreau — Francuzka, kończy jutro 18 lat, kobieta',
  },
};
