import type { Outcome } from '../protocol/api.ts';
import type { PhoneCopy } from './copy/index.ts';
import { MethodPicker } from './MethodPicker.tsx';
import type { PhoneModel } from './model.ts';
import { OutcomePanel } from './OutcomePanel.tsx';
import { PersonaPicker } from './PersonaPicker.tsx';
import { RequestSummary } from './RequestSummary.tsx';
import { SandboxHeader } from './SandboxHeader.tsx';

const OUTCOME_TONE = { approved: 'good', failed: 'bad', cancelled: 'neutral' } as const;

export function PhonePage({ model, copy }: { model: PhoneModel; copy: PhoneCopy }) {
  const view = model.view.value;
  return (
    <div class="phone" data-view={view.kind}>
      <SandboxHeader copy={copy} />
      <main>
        {view.kind === 'loading' && (
          <p class="phone-card phone-loading" role="status">
            {copy.loading}
          </p>
        )}
        {view.kind === 'problem' && (
          <OutcomePanel
            tone="bad"
            testId="problem"
            title={copy.problems[view.problem].title}
            help={copy.problems[view.problem].help}
            {...(view.retryable ? { action: { label: copy.retry, run: () => void model.load() } } : {})}
          />
        )}
        {view.kind === 'done' && (
          <OutcomePanel
            tone={OUTCOME_TONE[view.outcome]}
            testId="outcome"
            title={copy.outcomes[view.outcome].title}
            help={copy.outcomes[view.outcome].help}
          />
        )}
        {view.kind === 'asking' && (
          <form
            class="phone-form"
            onSubmit={(event) => {
              event.preventDefault();
              void model.submit('approved');
            }}
          >
            <RequestSummary copy={copy} request={view.request} />
            <PersonaPicker
              copy={copy}
              personas={model.personas.value}
              selected={model.persona}
              disabled={view.sending !== null}
            />
            <MethodPicker copy={copy} allowed={model.method.value} disabled={view.sending !== null} />
            {view.error && (
              <p class="phone-error" role="alert">
                {copy.problems[view.error].title}. {copy.problems[view.error].help}
              </p>
            )}
            <div class="phone-actions">
              {/* data-outcome: a hook for test tools that holds in every language */}
              <button
                type="submit"
                class="phone-button phone-button-primary"
                disabled={view.sending !== null}
                data-outcome="approved"
              >
                {view.sending === 'approved' ? copy.sending : copy.approve}
              </button>
              <OutcomeButton
                outcome="failed"
                label={copy.fail}
                sendingLabel={copy.sending}
                model={model}
                sending={view.sending}
              />
              <OutcomeButton
                outcome="cancelled"
                label={copy.cancel}
                sendingLabel={copy.sending}
                model={model}
                sending={view.sending}
              />
            </div>
          </form>
        )}
      </main>
    </div>
  );
}

function OutcomeButton(props: {
  outcome: Outcome;
  label: string;
  sendingLabel: string;
  model: PhoneModel;
  sending: Outcome | null;
}) {
  const { outcome, label, sendingLabel, model, sending } = props;
  return (
    <button
      type="button"
      class="phone-button phone-button-secondary"
      disabled={sending !== null}
      onClick={() => void model.submit(outcome)}
      data-outcome={outcome}
    >
      {sending === outcome ? sendingLabel : label}
    </button>
  );
}
