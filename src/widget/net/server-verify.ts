import type { SvcResult } from '../../shared/contract.ts';
import { sleep, withTimeout } from '../../shared/timeout.ts';

/**
 * Server-verify mode (design.md §7): asks the partner's own endpoint, at most once a second, until
 * it answers `{ verified: true }` or `timeoutSeconds` pass. The endpoint is same-origin, so the
 * partner's cookies go with it.
 *
 * @example
 * if (await confirmWithPartner('/api/age/confirm', { grant_code }, 30, signal)) redirect();
 */
export async function confirmWithPartner(
  endpoint: string,
  result: SvcResult,
  timeoutSeconds: number,
  signal: AbortSignal,
): Promise<boolean> {
  const deadline = Date.now() + timeoutSeconds * 1000;
  const headers: Record<string, string> =
    'grant_code' in result ? { 'X-SVC-Grant-Code': result.grant_code } : { 'X-SVC-Attestation': result.attestation };
  while (!signal.aborted && Date.now() < deadline) {
    const startedAt = Date.now();
    const timed = withTimeout(signal, deadline - startedAt);
    try {
      const response = await fetch(new URL(endpoint, location.href), {
        headers,
        credentials: 'same-origin',
        cache: 'no-store',
        signal: timed.signal,
      });
      if (response.ok && ((await response.json()) as { verified?: unknown }).verified === true) return true;
    } catch {
      // not yet: a slow or failing partner backend is what the timeout is for
    } finally {
      timed.clear();
    }
    await sleep(Math.min(startedAt + 1000, deadline) - Date.now(), signal);
  }
  return false;
}
