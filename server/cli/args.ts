/**
 * Flag parsing for the CLI's subcommands: `--name value` or `--name=value`, each at most once. No
 * value may hold a control character (C0, DEL, C1): a name or a domain is printed back later by
 * `list`, and ESC or a newline there steers the operator's terminal (rules/printable.ts).
 */
import { quote } from '../rules/printable.ts';

/** C0 controls, DEL and C1 controls. */
const CONTROL = /\p{Cc}/u;

export type ParsedFlags = { ok: true; flags: Map<string, string | true> } | { ok: false; problem: string };

/**
 * Reads `args` against the allowed flags (`true`: takes a value; `false`: a switch).
 *
 * @example parseFlags(['--rail', 'standard', '--json'], { rail: true, json: false })
 */
export function parseFlags(args: readonly string[], allowed: Readonly<Record<string, boolean>>): ParsedFlags {
  const flags = new Map<string, string | true>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const match = /^--([a-z][a-z0-9-]*)(?:=(.*))?$/s.exec(arg);
    if (!match) return { ok: false, problem: `unexpected argument ${quote(arg)}` };
    const name = match[1]!;
    if (!Object.hasOwn(allowed, name)) return { ok: false, problem: `unknown flag --${name}` };
    if (flags.has(name)) return { ok: false, problem: `--${name} given twice` };
    if (!allowed[name]) {
      if (match[2] !== undefined) return { ok: false, problem: `--${name} takes no value` };
      flags.set(name, true);
      continue;
    }
    const value = match[2] ?? args[++i];
    if (value === undefined || (match[2] === undefined && value.startsWith('--')))
      return { ok: false, problem: `--${name} needs a value` };
    if (CONTROL.test(value))
      return {
        ok: false,
        problem: `--${name} must not hold control characters (ESC, newline, …), got ${quote(value)}`,
      };
    flags.set(name, value);
  }
  return { ok: true, flags };
}
