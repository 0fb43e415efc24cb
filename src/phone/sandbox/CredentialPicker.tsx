import type { Signal } from '@preact/signals';
import type { SandboxWalletChoice } from '../../protocol/sandbox.ts';
import type { SandboxCopy } from './copy/index.ts';

/**
 * The sandbox wallet's credential (design.md §13, §15), when the request accepts more than one: the
 * EU PID, the PID without age_over_18 (its birth date proves isAdult), the mobile driving licence,
 * the PID as an SD-JWT VC, or that one revoked. Nothing chosen yet is the first the request accepts.
 */
export function CredentialPicker(props: {
  copy: SandboxCopy;
  credentials: SandboxWalletChoice[];
  selected: Signal<SandboxWalletChoice | null>;
  disabled: boolean;
}) {
  const { copy, credentials, selected, disabled } = props;
  const current = selected.value !== null && credentials.includes(selected.value) ? selected.value : credentials[0];
  return (
    <fieldset class="phone-choices" disabled={disabled}>
      <legend>{copy.credentialLegend}</legend>
      {credentials.map((credential) => (
        <label key={credential} class="phone-choice">
          <input
            type="radio"
            name="credential"
            value={credential}
            checked={current === credential}
            onChange={() => (selected.value = credential)}
          />
          <span>{copy.credentials[credential]}</span>
        </label>
      ))}
    </fieldset>
  );
}
