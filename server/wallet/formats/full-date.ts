/**
 * An mdoc `birth_date` read as a civil date (design.md §15). ISO/IEC 18013-5 and the PID rulebook
 * type it `full-date`: CBOR tag 1004 over `YYYY-MM-DD` (RFC 8943), which @owf/mdoc decodes into its
 * `DateOnly`; some issuers send the bare `YYYY-MM-DD` text string, which is accepted as well. A
 * `tdate` (tag 0, a date-time, decoded into a `Date`) is accepted only at exactly midnight UTC,
 * the form issuers that write dates as date-times use; any other time would make the day depend on
 * a time zone, so it is refused. The value is returned as `YYYY-MM-DD` for the one facts rule
 * (rules/facts.ts) and never leaves the caller: only isAdult does.
 *
 * Where the libraries stop (docs/wallets.md#where-the-libraries-stop), the gaps this file covers:
 *
 * 12. @owf/mdoc's `DateOnly` (tag 1004, full-date) keeps a `Date` made by `new Date(text)`, not the
 *    text: `2007-02-29` becomes 1 March, `1990-1-5` and `Jan 5 1990` are read as dates, and the
 *    tag over a number becomes a date too. And `IssuerSignedItem.isValid` digests a re-encoding of
 *    the decoded item, not the IssuerSignedItemBytes received, so such a value, re-encoded in its
 *    normalised form, fails the digest check (refused as `digests`, the request still waiting) →
 *    full-date.ts reads what passed strictly (`YYYY-MM-DD`, a real civil date; a bare text string
 *    the same way; a tdate only at midnight UTC), never trusting the Date alone (design.md §15).
 *    Upstream: DateOnly should keep its text and refuse what RFC 8943 does not allow, and digests
 *    should be computed over the bytes received.
 */
import { DateOnly } from '@owf/mdoc';
import { formatCivilDate, parseCivilDate } from '../../rules/facts.ts';

/** What reading a birth date can say (a closed set: never the value). */
export type BirthDateProblem = 'birth_date is not a full-date' | 'birth_date is a date-time other than midnight UTC';

/**
 * The `YYYY-MM-DD` of a disclosed `birth_date`, or why it is not one (31 April, 29 February of a
 * common year, another text form, a number, …).
 *
 * @example readFullDate(new DateOnly('2008-02-29')) // { date: '2008-02-29' }
 * @example readFullDate('2007-02-29') // { problem: 'birth_date is not a full-date' }
 */
export function readFullDate(value: unknown): { date: string } | { problem: BirthDateProblem } {
  if (value instanceof Date) {
    const ms = value.getTime();
    if (Number.isNaN(ms)) return { problem: 'birth_date is not a full-date' };
    if (ms % 86_400_000 !== 0) return { problem: 'birth_date is a date-time other than midnight UTC' };
    const d = new Date(ms);
    return readText(formatCivilDate({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }));
  }
  if (value instanceof DateOnly) {
    let text: string;
    try {
      // DateOnly keeps a Date, not the text it was given (gap 12, above).
      text = value.toISOString();
    } catch {
      return { problem: 'birth_date is not a full-date' };
    }
    return readText(text);
  }
  return typeof value === 'string' ? readText(value) : { problem: 'birth_date is not a full-date' };
}

function readText(text: string): { date: string } | { problem: BirthDateProblem } {
  const date = parseCivilDate(text);
  return date === null ? { problem: 'birth_date is not a full-date' } : { date: formatCivilDate(date) };
}
