import { describe, expect, it } from 'vitest';
import { ServiceError } from '../errors.ts';
import { readLongPoll } from './long-poll.ts';

describe('readLongPoll', () => {
  it('answers at once when wait is absent', () => {
    expect(readLongPoll({})).toEqual({ waitSeconds: 0, known: null });
  });

  it('reads wait in seconds up to 25 and the status the caller knows', () => {
    expect(readLongPoll({ wait: '25', known: 'in_progress' })).toEqual({ waitSeconds: 25, known: 'in_progress' });
    expect(readLongPoll({ wait: '0' })).toEqual({ waitSeconds: 0, known: null });
  });

  it.each([
    { wait: '26' },
    { wait: '-1' },
    { wait: '1.5' },
    { wait: '100' },
    { wait: ['1', '2'] },
    { known: 'done' },
    { known: ['pending'] },
  ])('refuses %j with 400 INVALID_REQUEST', (query) => {
    expect(() => readLongPoll(query)).toThrow(ServiceError);
  });
});
