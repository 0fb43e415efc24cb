import type { Outcome } from '../../protocol/wire.ts';
import type { SandboxFormProps } from '../model.ts';
import type { SandboxCopy } from './copy/index.ts';
import { CredentialPicker } from './CredentialPicker.tsx';
import { MethodPicker } from './MethodPicker.tsx';
import type { SandboxModel } from './model.ts';
import { PersonaPicker } from './PersonaPicker.tsx';

/**
 * The sandbox persona picker (design.md §4): a persona, the method the request accepts, the sandbox
 * wallet's credential when the request accepts several (design.md §13), and the verdict. `titled`
 * when other ways to prove it come first.
 */
export function SandboxForm(props: SandboxFormProps & { copy: SandboxCopy; model: SandboxModel }) {
  const { copy, model, sending, titled } = props;
  const disabled = sending !== null || props.busy;
  return (
    <form
      class="phone-form"
      aria-labelledby={titled ? 'sandbox-title' : undefined}
      onSubmit={(event) => {
        event.preventDefault();
        void model.submit('approved');
      }}
    >
      {titled && (
        <h3 id="sandbox-title" class="phone-section-title">
          {copy.sandboxSection}
        </h3>
      )}
      <PersonaPicker copy={copy} personas={model.personas.value} selected={model.persona} disabled={disabled} />
      <MethodPicker copy={copy} allowed={model.method.value} disabled={disabled} />
      {model.method.value === 'eudi_wallet' && model.credentials.value.length > 1 && (
        <CredentialPicker
          copy={copy}
          credentials={model.credentials.value}
          selected={model.credential}
          disabled={disabled}
        />
      )}
      {props.error && (
        <p class="phone-error" role="alert">
          {props.error}
        </p>
      )}
      <div class="phone-actions">
        {/* data-outcome: a hook for test tools that holds in every language */}
        <button type="submit" class="phone-button phone-button-primary" disabled={disabled} data-outcome="approved">
          {sending === 'approved' ? copy.sending : copy.approve}
        </button>
        <OutcomeButton
          outcome="failed"
          label={copy.fail}
          copy={copy}
          model={model}
          sending={sending}
          disabled={disabled}
        />
        <OutcomeButton
          outcome="cancelled"
          label={copy.cancel}
          copy={copy}
          model={model}
          sending={sending}
          disabled={disabled}
        />
      </div>
    </form>
  );
}

function OutcomeButton(props: {
  outcome: Outcome;
  label: string;
  copy: SandboxCopy;
  model: SandboxModel;
  sending: Outcome | null;
  disabled: boolean;
}) {
  const { outcome, label, copy, model, sending, disabled } = props;
  return (
    <button
      type="button"
      class="phone-button phone-button-secondary"
      disabled={disabled}
      onClick={() => void model.submit(outcome)}
      data-outcome={outcome}
    >
      {sending === outcome ? copy.sending : label}
    </button>
  );
}
