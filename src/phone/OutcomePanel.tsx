import { useEffect, useRef } from 'preact/hooks';

/** A final (or blocking) state: a title that takes focus, one line of help, maybe an action. */
export function OutcomePanel({
  tone,
  title,
  help,
  testId,
  action,
}: {
  tone: 'good' | 'bad' | 'neutral';
  title: string;
  help: string;
  testId: string;
  action?: { label: string; run: () => void };
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [title]);
  const icon = tone === 'good' ? '✓' : tone === 'bad' ? '✕' : 'i';
  return (
    <section class={`phone-card phone-outcome phone-outcome-${tone}`} data-testid={testId}>
      <span class="phone-outcome-icon" aria-hidden="true">
        {icon}
      </span>
      <h2 ref={heading} tabIndex={-1}>
        {title}
      </h2>
      <p class="phone-help">{help}</p>
      {action && (
        <button type="button" class="phone-button phone-button-secondary" onClick={action.run}>
          {action.label}
        </button>
      )}
    </section>
  );
}
