import type { PhoneMethod } from '../protocol/wire.ts';
import type { EndingKey, PhoneCopy } from './copy/index.ts';
import { MethodList } from './MethodList.tsx';
import type { AskingView, PhoneModel } from './model.ts';
import { Notice } from './Notice.tsx';
import { OutcomePanel } from './OutcomePanel.tsx';
import { PageHeader } from './PageHeader.tsx';
import { RequestSummary } from './RequestSummary.tsx';

const OUTCOME_TONE = { approved: 'good', failed: 'bad', cancelled: 'neutral' } as const;
const ENDING_TONE: Readonly<Record<EndingKey, 'good' | 'bad' | 'neutral'>> = {
  approved: 'good',
  failed: 'bad',
  cancelled: 'neutral',
  claims_missing: 'bad',
  provider_error: 'bad',
  ended: 'neutral',
  link_expired: 'bad',
};

/**
 * `back`: the way back to the page that asked, where the page knows it (way-back.ts), offered on an
 * approved view.
 */
export function PhonePage({ model, copy, back }: { model: PhoneModel; copy: PhoneCopy; back?: (() => void) | null }) {
  const view = model.view.value;
  const backAction = back ? { action: { label: copy.backToSite, run: back } } : {};
  return (
    <div class="phone" data-view={view.kind}>
      <PageHeader copy={copy} sandbox={model.sandbox.value} intro={view.kind === 'loading' || view.kind === 'asking'} />
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
            {...(view.outcome === 'approved' ? backAction : {})}
          />
        )}
        {view.kind === 'finished' && (
          <OutcomePanel
            tone={ENDING_TONE[view.ending]}
            testId="finished"
            title={copy.endings[view.ending].title}
            help={copy.endings[view.ending].help}
            {...(view.ending === 'approved' ? backAction : {})}
          />
        )}
        {view.kind === 'asking' && <Asking model={model} copy={copy} view={view} />}
      </main>
    </div>
  );
}

/**
 * Why the ways are offered again (if so), the request, then the ways to prove it in the service's
 * order (the persona picker, in sandbox, last: the sandbox wing's form, loaded by the model).
 */
function Asking({ model, copy, view }: { model: PhoneModel; copy: PhoneCopy; view: AskingView }) {
  const methods = view.request.methods;
  const real = methods.filter((m): m is Exclude<PhoneMethod, { id: 'sandbox' }> => m.id !== 'sandbox');
  const sandbox = methods.some((m) => m.id === 'sandbox');
  const SandboxForm = sandbox ? model.wing.value?.Form : undefined;
  const error = view.error && `${copy.problems[view.error].title}. ${copy.problems[view.error].help}`;
  return (
    <div class="phone-stack">
      {view.notice && <Notice panel={copy.notices[view.notice]} testId="notice" />}
      <RequestSummary copy={copy} request={view.request} sandbox={sandbox} takeFocus={view.notice === null} />
      {real.length > 0 && (
        <section class="phone-stack" aria-labelledby="methods-title">
          <h2 id="methods-title" class="phone-section-title">
            {copy.methodsTitle}
          </h2>
          <MethodList copy={copy} model={model} methods={real} busy={view.busy} />
          {error && (
            <p class="phone-error" role="alert">
              {error}
            </p>
          )}
          {SandboxForm && <SandboxForm sending={view.sending} busy={view.busy !== null} titled error={null} />}
        </section>
      )}
      {real.length === 0 && SandboxForm && (
        <SandboxForm sending={view.sending} busy={false} titled={false} error={error} />
      )}
    </div>
  );
}
