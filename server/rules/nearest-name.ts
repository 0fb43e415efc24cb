/**
 * The known name a typo most likely meant: for an unknown `SVC_*` variable (config.ts) and an
 * unknown loader attribute or scope (loader-warnings.ts).
 */

/** Levenshtein distance: edits (insert, delete, substitute) that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length]!;
}

/**
 * The name of `known` closest to `name` by {@link editDistance}, the first of equals.
 *
 * @example nearestName('SVC_PUBLC_URL', ['SVC_PORT', 'SVC_PUBLIC_URL']) // 'SVC_PUBLIC_URL'
 */
export function nearestName(name: string, known: readonly string[]): string {
  let best = known[0]!;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const distance = editDistance(name, candidate);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}
