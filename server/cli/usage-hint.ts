/**
 * The second line of a CLI usage error (docs/operations.md#the-svc-command): the first says what
 * was wrong in one line, this one where the whole usage is, instead of printing it.
 *
 * @example context.err(`svc partners add: --rail is required\n${usageHint('partners')}`)
 * // svc partners add: --rail is required
 * // (the usage: npm run svc -- partners help)
 */
export function usageHint(command: string): string {
  return `(the usage: npm run svc -- ${command} help)`;
}
