/**
 * The UI bundle's entry and only side effect: hand the mount function to the loader, which
 * injected this script and reads the global on `load` (DESIGN §7, two stages). The locale
 * scripts sit beside this one: note where, while `document.currentScript` still says.
 */
import { UI_GLOBAL } from '../shared/contract.ts';
import { locateCopy } from './copy/index.ts';
import { mountWidget } from './mount.tsx';

locateCopy(document.currentScript);
(window as unknown as Record<string, unknown>)[UI_GLOBAL] = mountWidget;
