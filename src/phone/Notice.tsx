import { useEffect, useRef } from 'preact/hooks';
import type { Panel } from './copy/index.ts';

/** Why the ways to prove it are offered again; its heading takes the focus when it appears. */
export function Notice({ panel, testId }: { panel: Panel; testId: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [panel.title]);
  return (
    <section class="phone-card phone-notice" data-testid={testId} aria-labelledby="notice-title">
      <h2 id="notice-title" ref={heading} tabIndex={-1}>
        {panel.title}
      </h2>
      <p class="phone-help">{panel.help}</p>
    </section>
  );
}
