/**
 * We promise Node ≥ 20.19 (package.json `engines`), so every package `npm ci` installs must say it
 * runs there: one that declares only Node 22 makes `npm ci` print EBADENGINE warnings, however
 * well it happens to run. The overrides that keep it so are explained in docs/development.md.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

type Version = [number, number, number];

const compare = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** `20`, `20.x`, `20.19`, `20.19.0` → the version and how many parts were given (0 for `*`). */
function parsePartial(text: string): { version: Version; parts: number } {
  const pieces = text.split('.');
  const numbers: number[] = [];
  for (const piece of pieces) {
    if (/^[x*X]$/.test(piece)) break;
    if (!/^\d+$/.test(piece)) throw new Error(`cannot read version "${text}"`);
    numbers.push(Number(piece));
  }
  if (pieces.length > 3) throw new Error(`cannot read version "${text}"`);
  return { version: [numbers[0] ?? 0, numbers[1] ?? 0, numbers[2] ?? 0], parts: numbers.length };
}

/** The first version after every version a partial names (`20.19` → 20.20.0, `20` → 21.0.0). */
function nextAfter({ version, parts }: { version: Version; parts: number }): Version {
  if (parts === 1) return [version[0] + 1, 0, 0];
  if (parts === 2) return [version[0], version[1] + 1, 0];
  return [version[0], version[1], version[2] + 1];
}

function satisfiesComparator(v: Version, comparator: string): boolean {
  const match = /^(>=|<=|>|<|=|\^|~)?v?(.*)$/.exec(comparator)!;
  const op = match[1] ?? '';
  if (match[2] === '' || match[2] === '*' || match[2] === 'x') return true;
  const partial = parsePartial(match[2]!);
  const { version, parts } = partial;
  if (parts === 0) return true;
  const inRange = (low: Version, high: Version) => compare(v, low) >= 0 && compare(v, high) < 0;
  switch (op) {
    case '>=':
      return compare(v, version) >= 0;
    case '>':
      return compare(v, parts === 3 ? version : nextAfter(partial)) >= (parts === 3 ? 1 : 0);
    case '<':
      return compare(v, version) < 0;
    case '<=':
      return compare(v, nextAfter(partial)) < 0;
    case '^': {
      const high: Version =
        version[0] > 0 || parts === 1
          ? [version[0] + 1, 0, 0]
          : version[1] > 0 || parts === 2
            ? [0, version[1] + 1, 0]
            : [0, 0, version[2] + 1];
      return inRange(version, high);
    }
    case '~':
      return inRange(version, parts === 1 ? [version[0] + 1, 0, 0] : [version[0], version[1] + 1, 0]);
    default:
      return inRange(version, nextAfter(partial));
  }
}

/**
 * node-semver's `satisfies` for the range forms package `engines` use (`||`, comparators
 * joined by spaces, `^`, `~`, x-ranges); anything else throws, so a new form fails loudly.
 */
function satisfies(version: string, range: string): boolean {
  const v = parsePartial(version).version;
  return range.split('||').some((alternative) => {
    const comparators = alternative
      .trim()
      .replace(/(>=|<=|>|<|=)\s+/g, '$1')
      .split(/\s+/);
    if (comparators.includes('-')) throw new Error(`hyphen ranges are not read here: "${range}"`);
    return comparators.every((c) => satisfiesComparator(v, c));
  });
}

const root = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string };
};
const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
};

describe('the Node versions our packages accept', () => {
  it('reads engine ranges the way npm does', () => {
    expect(satisfies('20.19.0', '>=20.19')).toBe(true);
    expect(satisfies('20.19.0', '>=22')).toBe(false);
    expect(satisfies('20.19.0', '^20.19.0 || ^22.13.0 || >=24')).toBe(true);
    expect(satisfies('20.18.9', '^20.19.0 || >=22.12.0')).toBe(false);
    expect(satisfies('20.19.0', '18 || 20 || >=22')).toBe(true);
    expect(satisfies('21.0.0', '18 || 20 || >=22')).toBe(false);
    expect(satisfies('20.19.0', '>=23.5.0 || ^22.13.0 || ^20.17.0')).toBe(true);
    expect(satisfies('20.19.0', '>= 0.8.x')).toBe(true);
    expect(satisfies('20.19.0', '10.* || >= 12.*')).toBe(true);
    expect(satisfies('20.19.0', '>=16 || 14 >=14.17')).toBe(true);
    expect(satisfies('14.16.0', '>=16 || 14 >=14.17')).toBe(false);
    expect(satisfies('20.19.0', '^10 || ^12 || >=14')).toBe(true);
    expect(satisfies('20.19.0', '<20 || >20.19.0')).toBe(false);
    expect(satisfies('20.19.0', '~20.19')).toBe(true);
    expect(satisfies('20.19.0', '*')).toBe(true);
    expect(() => satisfies('20.19.0', '1.2 - 2.3')).toThrow(/hyphen/);
  });

  it('has every package in the lock file accept the oldest Node we promise (no EBADENGINE from npm ci)', () => {
    const floor = /^>=\s*(\d+\.\d+(?:\.\d+)?)$/.exec(root.engines.node)?.[1];
    expect(floor, `package.json engines.node should read ">=X.Y", got "${root.engines.node}"`).toBeDefined();
    const refused = Object.entries(lock.packages)
      .filter(([path]) => path !== '')
      .flatMap(([path, entry]) => {
        const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        return range && !satisfies(floor!, range) ? [`${path}@${entry.version}: node ${range}`] : [];
      });
    expect(refused).toEqual([]);
  });
});
