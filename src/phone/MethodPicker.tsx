import type { Method } from '../protocol/api.ts';
import { COPY, METHOD_LABELS } from './copy.ts';

const METHODS: readonly Method[] = ['face_check', 'eudi_wallet'];

/** Both methods are listed; the one this request cannot use is disabled, with the reason. */
export function MethodPicker({ allowed, disabled }: { allowed: Method; disabled: boolean }) {
  return (
    <fieldset class="phone-choices" disabled={disabled} aria-describedby="method-help">
      <legend>{COPY.methodLegend}</legend>
      {METHODS.map((method) => (
        <label key={method} class="phone-choice">
          <input type="radio" name="method" value={method} checked={method === allowed} disabled={method !== allowed} />
          <span>{METHOD_LABELS[method]}</span>
        </label>
      ))}
      <p id="method-help" class="phone-help">
        {allowed === 'eudi_wallet' ? COPY.methodOnlyWallet : COPY.methodOnlyFace}
      </p>
    </fieldset>
  );
}
