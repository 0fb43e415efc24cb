import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { superviseChildren } from './start.ts';

function collect(): { out: Writable; text: () => string } {
  let text = '';
  const out = new Writable({
    write(chunk, _encoding, callback) {
      text += String(chunk);
      callback();
    },
  });
  return { out, text: () => text };
}

const node = (code: string) => ({ command: process.execPath, args: ['-e', code] });

describe('npm start supervisor', () => {
  it('prefixes each child output line with its name', async () => {
    const { out, text } = collect();
    const s = superviseChildren([{ name: 'svc', ...node('console.log("hello"); setInterval(() => {}, 1000)') }], { out });
    await waitFor(() => text().includes('hello'));
    s.stop('SIGTERM');
    expect(await s.done).toBe(0);
    expect(text()).toContain('svc │ hello');
  });

  it('stops the other child and reports failure when one child dies', async () => {
    const { out, text } = collect();
    const s = superviseChildren(
      [
        { name: 'long', ...node('setInterval(() => {}, 1000)') },
        { name: 'dies', ...node('setTimeout(() => process.exit(3), 50)') },
      ],
      { out },
    );
    expect(await s.done).toBe(3);
    expect(text()).toContain('dies │ exited (code 3); stopping the others');
  });

  it('reports success when both children end because they were asked to', async () => {
    const { out } = collect();
    const s = superviseChildren(
      [
        { name: 'a', ...node('process.on("SIGINT", () => process.exit(0)); setInterval(() => {}, 1000)') },
        { name: 'b', ...node('process.on("SIGINT", () => process.exit(0)); setInterval(() => {}, 1000)') },
      ],
      { out },
    );
    await new Promise((r) => setTimeout(r, 200));
    s.stop('SIGINT');
    expect(await s.done).toBe(0);
  });

  it('rejects ready when a child dies before its health check answers', async () => {
    const { out } = collect();
    const s = superviseChildren([{ name: 'svc', ...node('process.exit(1)'), healthUrl: 'http://127.0.0.1:9/healthz' }], { out, healthTimeoutMs: 5000 });
    await expect(s.ready).rejects.toThrow('svc exited before it was ready');
    expect(await s.done).toBe(1);
  });
});

async function waitFor(predicate: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
