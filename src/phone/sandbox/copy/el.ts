import type { SandboxCopy } from './index.ts';

/** Greek: the polite plural. */
export const el: SandboxCopy = {
  personaLegend: 'Δοκιμαστικό πρόσωπο',
  methodLegend: 'Μέθοδος επαλήθευσης',
  methodOnlyWallet: 'Το αίτημα είναι σε λειτουργία πορτοφολιού EUDI: μόνο το πορτοφόλι μπορεί να απαντήσει.',
  methodOnlyFace: 'Το αίτημα δεν είναι σε λειτουργία πορτοφολιού EUDI: το πορτοφόλι δεν προσφέρεται.',
  credentialLegend: 'Διαπιστευτήριο στο δοκιμαστικό πορτοφόλι',
  credentials: {
    av: 'Αποδεικτικό ηλικίας',
    pid: 'PID της ΕΕ (ταυτότητα)',
    'pid-no-age': 'PID της ΕΕ χωρίς age_over_18 (ημερομηνία γέννησης)',
    mdl: 'Δίπλωμα οδήγησης για κινητά',
    'pid-sd-jwt': 'PID της ΕΕ ως SD-JWT VC',
    'pid-sd-jwt-revoked': 'PID της ΕΕ ως SD-JWT VC, ανακληθέν',
  },
  approve: 'Έγκριση',
  fail: 'Αποτυχία ελέγχου',
  cancel: 'Ακύρωση',
  sending: 'Αποστολή…',
  methods: { face_check: 'Έλεγχος προσώπου', eudi_wallet: 'Πορτοφόλι EUDI' },
  sandboxSection: 'Ή απαντήστε εδώ ως δοκιμαστικό πρόσωπο',
  personas: {
    'fr-adult-m': 'Lucas Martin — Γάλλος, 34, άνδρας',
    'fr-adult-f': 'Camille Dubois — Γαλλίδα, 28, γυναίκα',
    'de-adult': 'Jonas Becker — Γερμανός, 45, άνδρας',
    'us-adult': 'Emily Carter — Αμερικανίδα, 31, γυναίκα',
    'fr-minor': 'Léa Petit — Γαλλίδα, 16, γυναίκα',
    'turns-18-today': 'Hugo Bernard — Γάλλος, κλείνει σήμερα τα 18, άνδρας',
    'turns-18-tomorrow': 'Chloé Moreau — Γαλλίδα, κλείνει αύριο τα 18, γυναίκα',
  },
};
