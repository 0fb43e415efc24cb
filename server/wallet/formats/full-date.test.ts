import { cborDecode, cborEncode, DateOnly } from '@owf/mdoc';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readFacts } from './credentials.ts';
import { readFullDate } from './full-date.ts';

const DAY_MS = 86_400_000;
const item = (elementIdentifier: string, elementValue: unknown) => ({ elementIdentifier, elementValue });

/** What the verifier sees of a CBOR item once @owf/mdoc's decoder has read it (its tags registered). */
const throughCbor = (value: unknown): unknown => cborDecode(cborEncode(value));

describe('readFullDate: an mdoc birth_date (design.md §15)', () => {
  it('reads a full-date (tag 1004), as the library decodes it', () => {
    const decoded = throughCbor(new DateOnly('2008-02-29'));
    expect(decoded).toBeInstanceOf(DateOnly);
    expect(readFullDate(decoded)).toEqual({ date: '2008-02-29' });
    // tag 1004 (0xd9 0x03ec) over the text "2008-02-29"
    expect(Buffer.from(cborEncode(new DateOnly('2008-02-29'))).toString('hex')).toBe(
      'd903ec6a' + Buffer.from('2008-02-29').toString('hex'),
    );
  });

  it('reads a YYYY-MM-DD text string', () => {
    expect(readFullDate('1990-01-05')).toEqual({ date: '1990-01-05' });
  });

  it('reads a tdate (tag 0) at exactly midnight UTC, and refuses any other time of day', () => {
    expect(readFullDate(throughCbor(new Date('1990-01-05T00:00:00Z')))).toEqual({ date: '1990-01-05' });
    expect(readFullDate(throughCbor(new Date('1969-12-31T00:00:00Z')))).toEqual({ date: '1969-12-31' });
    expect(readFullDate(new Date('1990-01-05T23:00:00Z'))).toEqual({
      problem: 'birth_date is a date-time other than midnight UTC',
    });
    expect(readFullDate(new Date('1969-12-31T12:00:00Z'))).toHaveProperty('problem');
    expect(readFullDate(new Date(Number.NaN))).toEqual({ problem: 'birth_date is not a full-date' });
  });

  it('refuses what is not a civil date: no 29 February in a common year, no 31 April, no other text form', () => {
    for (const value of [
      '2007-02-29',
      '1990-04-31',
      '1990-00-10',
      '1990-1-5',
      '19900105',
      '1990-01-05T00:00:00Z',
      ' 1990-01-05',
      0,
      19900105,
      true,
      {},
      undefined,
    ])
      expect(readFullDate(value), String(value)).toEqual({ problem: 'birth_date is not a full-date' });
    // The library's DateOnly of an impossible text holds an invalid Date: refused, never thrown.
    expect(readFullDate(new DateOnly('not a date'))).toEqual({ problem: 'birth_date is not a full-date' });
  });
});

describe('the 18-today rule at the verification time (design.md §12)', () => {
  const adultOn = (birthDate: unknown, now: number) =>
    readFacts([item('birth_date', birthDate)], 'pid', ['isAdult'], now);

  it('is adult on the 18th birthday itself, from 00:00 UTC, and not the day before at 23:59', () => {
    expect(adultOn(new DateOnly('2008-03-14'), Date.UTC(2026, 2, 14, 0, 0))).toEqual({ facts: { isAdult: true } });
    expect(adultOn(new DateOnly('2008-03-14'), Date.UTC(2026, 2, 13, 23, 59, 59))).toEqual({
      facts: { isAdult: false },
    });
  });

  it('born on 29 February: adult on 1 March of the common year of the 18th birthday (rules/facts.ts)', () => {
    expect(adultOn('2008-02-29', Date.UTC(2026, 1, 28, 12))).toEqual({ facts: { isAdult: false } });
    expect(adultOn('2008-02-29', Date.UTC(2026, 2, 1, 0))).toEqual({ facts: { isAdult: true } });
  });

  it('never makes a minor adult: any birth date less than 18 years before the clock gives false, 18 or more true', () => {
    fc.assert(
      fc.property(
        // a verification instant between 2025 and 2040, and a birth date within ±3 days of its 18th birthday
        fc.integer({ min: Date.UTC(2025, 0, 1), max: Date.UTC(2040, 0, 1) }),
        fc.integer({ min: -3, max: 3 }),
        fc.boolean(),
        (now, offsetDays, tagged) => {
          const today = new Date(now);
          const eighteenYearsAgo = new Date(
            Date.UTC(today.getUTCFullYear() - 18, today.getUTCMonth(), today.getUTCDate()) + offsetDays * DAY_MS,
          );
          const text = eighteenYearsAgo.toISOString().slice(0, 10);
          const value = tagged ? throughCbor(new DateOnly(text)) : text;
          const read = adultOn(value, now);
          const born = eighteenYearsAgo.getTime();
          // 18 full years reached: the same month-day 18 years on, or 1 March when that day does not exist.
          const [y, m, d] = [
            eighteenYearsAgo.getUTCFullYear() + 18,
            eighteenYearsAgo.getUTCMonth(),
            eighteenYearsAgo.getUTCDate(),
          ];
          const birthday = new Date(Date.UTC(y, m, d)).getUTCMonth() === m ? Date.UTC(y, m, d) : Date.UTC(y, m + 1, 1);
          const startOfToday = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
          expect(born).toBeLessThan(now);
          expect(read).toEqual({ facts: { isAdult: birthday <= startOfToday } });
          if (offsetDays > 0) expect(read).toEqual({ facts: { isAdult: false } });
        },
      ),
      { numRuns: 500 },
    );
  });
});
