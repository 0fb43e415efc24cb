import type { PhoneCopy } from './copy/index.ts';

/**
 * In sandbox, the page as it always was: the test-mode mark, "Sandbox phone" and what it stands
 * for. In production (or until the service said which), only the page's title.
 */
export function PageHeader({ copy, sandbox }: { copy: PhoneCopy; sandbox: boolean | null }) {
  if (!sandbox) {
    return (
      <header class="phone-header">
        <h1>{copy.pageTitle}</h1>
      </header>
    );
  }
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
