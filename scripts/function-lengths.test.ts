import { describe, expect, it } from 'vitest';
import { functionLengths } from './function-lengths.ts';

describe('function-lengths', () => {
  it('ends a .ts function at its own brace when it holds a generic arrow, which a .tsx file would read as JSX', () => {
    const source = [
      'export function outer() {',
      '  const pick = <T>(value: T) => value;',
      '  return pick(1);',
      '}',
      'function after() {',
      '  return 2;',
      '}',
    ].join('\n');
    expect(functionLengths('src/a.ts', source)).toEqual([
      { where: 'src/a.ts:1 outer', lines: 4 },
      { where: 'src/a.ts:2 pick', lines: 1 },
      { where: 'src/a.ts:5 after', lines: 3 },
    ]);
  });

  it('reads JSX in a .tsx file', () => {
    const source = ['export function View() {', '  return <p>hi</p>;', '}'].join('\n');
    expect(functionLengths('src/a.tsx', source)).toEqual([{ where: 'src/a.tsx:1 View', lines: 3 }]);
  });
});
