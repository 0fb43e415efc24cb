import type { PhoneCopy } from './copy/index.ts';

/**
 * In sandbox, the page as it always was: the test-mode mark, "Sandbox phone" and, while there is
 * something to decide (`intro`), what it stands for; once an outcome shows, the note's "pick a test
 * persona and decide the outcome" no longer applies. In production (or until the service said
 * which), only the page's title.
 */
export function PageHeader({ copy, sandbox, intro }: { copy: PhoneCopy; sandbox: boolean | null; intro: boolean }) {
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
      {intro && (
        <p class="phone-note" data-testid="sandbox-note">
          {copy.sandboxNote}
        </p>
      )}
    </header>
  );
}
