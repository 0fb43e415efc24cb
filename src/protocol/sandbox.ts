/**
 * The sandbox's part of the phone API (design.md §4): the persona picker's bodies and the personas.
 * Only sandbox code imports this module: the phone page's sandbox wing (src/phone/sandbox/, loaded
 * with import() when the service says sandbox) and the service's (server/sandbox/), so production's
 * phone page and wire contract (wire.ts) carry no persona (docs/design.md §4).
 */
import type { Method, Outcome, WalletCredential } from './wire.ts';

/** GET /api/m/personas (sandbox only): what the phone page offers to pick from. */
export interface PersonaSummary {
  id: string;
  label: string;
}

/**
 * What the sandbox wallet can present (design.md §15), each with the credential it answers as: every
 * wallet credential, `pid-no-age`, the PID as rulebook 1.1 issues it (birth date and nationality,
 * no age_over_18), the SD-JWT VC PID, and that PID revoked on the sandbox's status list.
 */
export const SANDBOX_WALLET_CHOICES = {
  av: 'av',
  pid: 'pid',
  'pid-no-age': 'pid',
  mdl: 'mdl',
  'pid-sd-jwt': 'pid_sd',
  'pid-sd-jwt-revoked': 'pid_sd',
} as const satisfies Record<string, WalletCredential>;
export type SandboxWalletChoice = keyof typeof SANDBOX_WALLET_CHOICES;

export interface PhoneCompleteBody {
  h: string;
  persona: string;
  method: Method;
  outcome: Outcome;
  /** with eudi_wallet: what the sandbox wallet presents (default the first credential the request accepts) */
  credential?: SandboxWalletChoice;
}

export interface Persona {
  id: string;
  label: string;
  /** ISO date, or: */
  birth_date?: string;
  /** age relative to today: born `age_years` years ago, shifted by `birthday_offset_days` (1 = turns that age tomorrow) */
  age_years?: number;
  birthday_offset_days?: number;
  sex: 'M' | 'F';
  nationality: string;
}
