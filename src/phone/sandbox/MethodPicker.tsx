import type { Method } from '../../protocol/wire.ts';
import type { SandboxCopy } from './copy/index.ts';

const METHODS: readonly Method[] = ['face_check', 'eudi_wallet'];

/** Both methods are listed; the one this request cannot use is disabled, with the reason. */
export function MethodPicker({ copy, allowed, disabled }: { copy: SandboxCopy; allowed: Method; disabled: boolean }) {
  return (
    <fieldset class="phone-choices" disabled={disabled} aria-describedby="method-help">
      <legend>{copy.methodLegend}</legend>
      {METHODS.map((method) => (
        <label key={method} class="phone-choice">
          <input type="radio" name="method" value={method} checked={method === allowed} disabled={method !== allowed} />
          <span>{copy.methods[method]}</span>
        </label>
      ))}
      <p id="method-help" class="phone-help">
        {allowed === 'eudi_wallet' ? copy.methodOnlyWallet : copy.methodOnlyFace}
      </p>
    </fieldset>
  );
}
