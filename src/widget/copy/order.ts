/**
 * A locale script carries its strings without their keys, in the order of fr.ts's keys (the
 * bundle carries fr.ts, so the keys travel once). Both the build and the bundle use this order;
 * both are named by one hash, so they always agree.
 */
import { fr, type Copy } from './fr.ts';

const KEYS = Object.keys(fr) as Array<keyof Copy>;

/** @example copyValues(de)[0] // 'Altersprüfung' (brand, fr.ts's first key) */
export function copyValues(copy: Copy): string[] {
  return KEYS.map((key) => copy[key]);
}

/** @example copyFromValues(copyValues(de)) // deep-equals de */
export function copyFromValues(values: readonly string[]): Copy {
  return Object.fromEntries(KEYS.map((key, i) => [key, values[i]])) as Copy;
}
