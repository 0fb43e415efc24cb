/**
 * The UI bundle's entry and only side effect: hand the mount function to the loader, which
 * injected this script and reads the global on `load` (design.md §7, two stages).
 */
import { UI_GLOBAL } from '../shared/contract.ts';
import { mountWidget } from './mount.tsx';

(window as unknown as Record<string, unknown>)[UI_GLOBAL] = mountWidget;
