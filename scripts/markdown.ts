/**
 * Just enough Markdown reading for the docs test: the links a page makes and the anchors its
 * headings give, both outside fenced code blocks, with GitHub's rules for anchors.
 */

/** The lines of a Markdown text that are not inside a ``` fenced block. */
function readProseLines(text: string): string[] {
  const prose: string[] = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    else if (!fenced) prose.push(line);
  }
  return prose;
}

/**
 * The targets of every inline link and image (`[text](target)`, `![alt](target)`) outside code.
 *
 * @example readMarkdownLinks('See [the API](docs/partner-api.md#signing).') // ['docs/partner-api.md#signing']
 */
export function readMarkdownLinks(text: string): string[] {
  const targets: string[] = [];
  for (const line of readProseLines(text)) {
    // Code spans may hold brackets and parentheses; a link's text may hold a code span.
    const plain = line.replace(/`[^`]*`/g, 'code');
    for (const match of plain.matchAll(/\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) targets.push(match[1]!);
  }
  return targets;
}

/**
 * The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens.
 *
 * @example slugifyHeading("The example partner's ADULT_BLIND pages") // 'the-example-partners-adult_blind-pages'
 */
export function slugifyHeading(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/**
 * Every anchor a page's headings give, repeated headings suffixed `-1`, `-2`… as GitHub does.
 *
 * @example readAnchors('# Errors\n## Errors') // Set { 'errors', 'errors-1' }
 */
export function readAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of readProseLines(text)) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = slugifyHeading(heading[1]!);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}
