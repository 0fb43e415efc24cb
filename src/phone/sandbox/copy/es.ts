import type { SandboxCopy } from './index.ts';

/** Spanish, as written in Spain: formal "usted". */
export const es: SandboxCopy = {
  personaLegend: 'Perfil de prueba',
  methodLegend: 'Método de verificación',
  methodOnlyWallet: 'Esta solicitud está en modo cartera EUDI: solo la cartera puede responderla.',
  methodOnlyFace: 'Esta solicitud no está en modo cartera EUDI: la cartera no se ofrece.',
  credentialLegend: 'Credencial en la cartera de prueba',
  credentials: {
    av: 'Prueba de edad',
    pid: 'PID europeo (identidad)',
    'pid-no-age': 'PID europeo sin age_over_18 (fecha de nacimiento)',
    mdl: 'Permiso de conducir móvil',
    'pid-sd-jwt': 'PID europeo como SD-JWT VC',
    'pid-sd-jwt-revoked': 'PID europeo como SD-JWT VC, revocado',
  },
  approve: 'Aprobar',
  fail: 'Hacer fallar la verificación',
  cancel: 'Cancelar',
  sending: 'Enviando…',
  methods: { face_check: 'Reconocimiento facial', eudi_wallet: 'Cartera EUDI' },
  sandboxSection: 'O responda aquí con un perfil de prueba',
  personas: {
    'fr-adult-m': 'Lucas Martin — francés, 34 años, hombre',
    'fr-adult-f': 'Camille Dubois — francesa, 28 años, mujer',
    'de-adult': 'Jonas Becker — alemán, 45 años, hombre',
    'us-adult': 'Emily Carter — estadounidense, 31 años, mujer',
    'fr-minor': 'Léa Petit — francesa, 16 años, mujer',
    'turns-18-today': 'Hugo Bernard — francés, cumple 18 hoy, hombre',
    'turns-18-tomorrow': 'Chloé Moreau — francesa, cumple 18 mañana, mujer',
  },
};
