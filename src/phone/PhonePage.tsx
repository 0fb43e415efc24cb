import type { Outcome } from '../protocol/api.ts';
import { COPY } from './copy.ts';
import { MethodPicker } from './MethodPicker.tsx';
import type { PhoneModel } from './model.ts';
import { OutcomePanel } from './OutcomePanel.tsx';
import { PersonaPicker } from './PersonaPicker.tsx';
import { RequestSummary } from './RequestSummary.tsx';
import { SandboxHeader } from './SandboxHeader.tsx';

const OUTCOME_TONE = { approved: 'good', failed: 'bad', cancelled: 'neutral' } as const;

export function PhonePage({ model }: { model: PhoneModel }) {
  const view = model.view.value;
  return (
    <div class="phone" data-view={view.kind}>
      <SandboxHeader />
      <main>
        {view.kind === 'loading' && (
          <p class="phone-card phone-loading" role="status">
            {COPY.loading}
          </p>
        )}
        {view.kind === 'problem' && (
          <OutcomePanel
            tone="bad"
            testId="problem"
            title={COPY.problems[view.problem].title}
            help={COPY.problems[view.problem].help}
            {...(view.retryable ? { action: { label: COPY.retry, run: () => void model.load() } } : {})}
          />
        )}
        {view.kind === 'done' && (
          <OutcomePanel tone={OUTCOME_TONE[view.outcome]} testId="outcome" title={COPY.outcomes[view.outcome].title} help={COPY.outcomes[view.outcome].help} />
        )}
        {view.kind === 'asking' && (
          <form
            class="phone-form"
            onSubmit={(event) => {
              event.preventDefault();
              void model.submit('approved');
            }}
          >
            <RequestSummary request={view.request} />
            <PersonaPicker personas={model.personas.value} selected={model.persona} disabled={view.sending !== null} />
            <MethodPicker allowed={model.method.value} disabled={view.sending !== null} />
            {view.error && (
              <p class="phone-error" role="alert">
                {COPY.problems[view.error].title}. {COPY.problems[view.error].help}
              </p>
            )}
            <div class="phone-actions">
              <button type="submit" class="phone-button phone-button-primary" disabled={view.sending !== null}>
                {view.sending === 'approved' ? COPY.sending : COPY.approve}
              </button>
              <OutcomeButton outcome="failed" label={COPY.fail} model={model} sending={view.sending} />
              <OutcomeButton outcome="cancelled" label={COPY.cancel} model={model} sending={view.sending} />
            </div>
          </form>
        )}
      </main>
    </div>
  );
}

function OutcomeButton({ outcome, label, model, sending }: { outcome: Outcome; label: string; model: PhoneModel; sending: Outcome | null }) {
  return (
    <button type="button" class="phone-button phone-button-secondary" disabled={sending !== null} onClick={() => void model.submit(outcome)}>
      {sending === outcome ? COPY.sending : label}
    </button>
  );
}
