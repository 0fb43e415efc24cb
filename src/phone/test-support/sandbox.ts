/**
 * Test support, never built into the page: the sandbox wing imported up front (the page loads it
 * with import(), main.tsx), and its model reached from the page's.
 */
import type { Locale } from '../../protocol/wire.ts';
import type { PhoneEnvironment, PhoneModel } from '../model.ts';
import type { SandboxModel } from '../sandbox/model.ts';
import { SANDBOX_COPY } from '../sandbox/copy/all.ts';
import { openSandboxWing, type OpenedSandboxWing } from '../sandbox/wing.tsx';

/** The environment of a page without the browser's wallet, its sandbox wing speaking `locale`. */
export function sandboxEnvironment(locale: Locale = 'en', base: Partial<PhoneEnvironment> = {}): PhoneEnvironment {
  return {
    navigate: () => {},
    requestCredential: null,
    loadSandbox: async (port) => openSandboxWing(port, SANDBOX_COPY[locale]),
    ...base,
  };
}

/** The persona picker's model, once the page loaded it; throws before. */
export function sandboxOf(model: PhoneModel): SandboxModel {
  const wing = model.wing.value as OpenedSandboxWing | null;
  if (!wing) throw new Error('the sandbox wing is not loaded');
  return wing.model;
}
