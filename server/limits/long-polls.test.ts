import { describe, expect, it } from 'vitest';
import { createLongPollGate } from './long-polls.ts';

describe('the long-poll gate', () => {
  it('lets an address hold its cap of waiting polls, and the next one in once one is released', () => {
    const gate = createLongPollGate({ perAddress: 3, total: 10 });
    const held = [gate.tryEnter('a'), gate.tryEnter('a'), gate.tryEnter('a')];
    expect(held.every(Boolean)).toBe(true);
    expect(gate.tryEnter('a')).toBeNull();
    expect(gate.tryEnter('b')).not.toBeNull();
    held[0]!();
    held[0]!();
    expect(gate.waitingFor('a')).toBe(2);
    expect(gate.tryEnter('a')).not.toBeNull();
  });

  it('caps the instance whatever the addresses', () => {
    const gate = createLongPollGate({ perAddress: 100, total: 5 });
    const held = Array.from({ length: 5 }, (_, i) => gate.tryEnter(`addr-${i}`));
    expect(held.every(Boolean)).toBe(true);
    expect(gate.tryEnter('addr-new')).toBeNull();
    for (const release of held) release!();
    expect(gate.waiting).toBe(0);
    expect(gate.waitingFor('addr-0')).toBe(0);
  });
});
