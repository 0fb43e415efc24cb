import type { SandboxCopy } from './index.ts';

/** Bulgarian: the polite plural, Bulgarian quotation marks, buttons as verbal nouns. */
export const bg: SandboxCopy = {
  personaLegend: 'Тестово лице',
  methodLegend: 'Метод на проверка',
  methodOnlyWallet: 'Тази заявка е в режим „портфейл EUDI“: само портфейлът може да отговори на нея.',
  methodOnlyFace: 'Тази заявка не е в режим „портфейл EUDI“: портфейлът не се предлага.',
  credentialLegend: 'Удостоверение в тестовия портфейл',
  credentials: {
    av: 'Доказателство за възраст',
    pid: 'PID на ЕС (самоличност)',
    'pid-no-age': 'PID на ЕС без age_over_18 (дата на раждане)',
    mdl: 'Мобилна шофьорска книжка',
    'pid-sd-jwt': 'PID на ЕС като SD-JWT VC',
    'pid-sd-jwt-revoked': 'PID на ЕС като SD-JWT VC, отменен',
  },
  approve: 'Одобряване',
  fail: 'Неуспешна проверка',
  cancel: 'Отказ',
  sending: 'Изпращане…',
  methods: { face_check: 'Проверка на лицето', eudi_wallet: 'Портфейл EUDI' },
  sandboxSection: 'Или отговорете тук като тестово лице',
  personas: {
    'fr-adult-m': 'Lucas Martin — французин, 34 г., мъж',
    'fr-adult-f': 'Camille Dubois — французойка, 28 г., жена',
    'de-adult': 'Jonas Becker — германец, 45 г., мъж',
    'us-adult': 'Emily Carter — американка, 31 г., жена',
    'fr-minor': 'Léa Petit — французойка, 16 г., жена',
    'turns-18-today': 'Hugo Bernard — французин, навършва 18 днес, мъж',
    'turns-18-tomorrow': 'Chloé Moreau — французойка, навършва 18 утре, жена',
  },
};
