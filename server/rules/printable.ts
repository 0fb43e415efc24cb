/**
 * What text an operator types, and a store gives back, may hold before a terminal shows it: names
 * and free text are refused when they carry a control character (C0, DEL, C1: ESC starts terminal
 * escapes, a newline breaks a table's rows), a format character (bidirectional overrides,
 * zero-width characters), a private-use or unassigned one, or a line or paragraph separator; what
 * is printed from a store is escaped, so a row written by other means cannot steer the terminal
 * either (docs/operations.md, "The svc command line").
 */

const UNPRINTABLE = /[\p{C}\p{Zl}\p{Zp}]/u;
const UNPRINTABLE_ALL = /[\p{C}\p{Zl}\p{Zp}]/gu;

/**
 * Whether `value` holds only printable characters.
 *
 * @example isPrintable('France Identité') // true
 * @example isPrintable('A\u001b[31mRED') // false
 */
export function isPrintable(value: string): boolean {
  return !UNPRINTABLE.test(value);
}

/**
 * `value` with every unprintable character written as a `\uXXXX` escape (one per UTF-16 unit), so
 * a terminal shows it and never obeys it. Printable text, and JSON text, stay valid as they were.
 *
 * @example escapeUnprintable('A\u001b[31mRED') // 'A\\u001b[31mRED'
 */
export function escapeUnprintable(value: string): string {
  return value.replace(UNPRINTABLE_ALL, (character) =>
    Array.from(
      { length: character.length },
      (_, i) => `\\u${character.charCodeAt(i).toString(16).padStart(4, '0')}`,
    ).join(''),
  );
}

/**
 * `value` quoted as a JSON string with its unprintable characters escaped: for echoing an
 * operator's argument back in a message.
 *
 * @example quote('two\nlines') // '"two\\nlines"'
 */
export function quote(value: string): string {
  return escapeUnprintable(JSON.stringify(value));
}
