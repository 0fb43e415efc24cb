import type { PhoneCopy } from './copy/index.ts';

export function SandboxHeader({ copy }: { copy: PhoneCopy }) {
  return (
    <header class="phone-header">
      <p class="phone-mark" data-testid="sandbox-mark">
        <span aria-hidden="true">⚠</span> {copy.sandboxMark}
      </p>
      <h1>{copy.title}</h1>
      <p class="phone-note">{copy.sandboxNote}</p>
    </header>
  );
}
