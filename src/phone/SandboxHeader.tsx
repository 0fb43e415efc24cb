import { COPY } from './copy.ts';

export function SandboxHeader() {
  return (
    <header class="phone-header">
      <p class="phone-mark" data-testid="sandbox-mark">
        <span aria-hidden="true">⚠</span> {COPY.sandboxMark}
      </p>
      <h1>{COPY.title}</h1>
      <p class="phone-note">{COPY.sandboxNote}</p>
    </header>
  );
}
