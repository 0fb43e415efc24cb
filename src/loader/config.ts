/**
 * The loader's configuration: its script tag's `data-*` attributes (docs/embedding.md's attribute
 * table, with design.md §7's additions), read once, validated, frozen. `SVC.render(container, options)` passes
 * its options through the same validation under the same names, camelCased as `dataset` spells
 * them (`successPath` for `data-success-path`).
 */
import type { Scope } from '../protocol/scopes.ts';
import {
  ACCENT_PATTERN,
  type Layout,
  type RenderOptions,
  type Size,
  type Theme,
  type WidgetConfig,
} from '../shared/contract.ts';

/** Attribute values by camelCased name, as `HTMLElement.dataset` gives them. */
export type RawConfig = Record<string, string | undefined>;

export interface ParsedConfig {
  /** always usable for showing the error state: invalid values fall back to their defaults */
  config: WidgetConfig;
  /**
   * The first attribute that is wrong and a short reason, as INIT_FAILED's message says it:
   * `data-success-path not same-origin`.
   */
  problem?: string;
}

/** The values of `data-theme`; the first is the default. */
export const THEMES: readonly Theme[] = ['dark', 'light', 'auto'];

/**
 * `render()` options as attribute values: `{ scopes: ['isAdult', 'isEU'], debug: true }` →
 * `{ scopes: 'isAdult,isEU', debug: 'true' }`.
 *
 * @example optionsToRaw({ serverVerifyTimeout: 10 }) // { serverVerifyTimeout: '10' }
 */
export function optionsToRaw(options: RenderOptions | undefined): RawConfig {
  const raw: RawConfig = {};
  for (const [key, value] of Object.entries(options ?? {})) if (value != null) raw[key] = String(value);
  return raw;
}

/**
 * True for a path on the page's own origin: `/…`, not `//…`, no backslash, no whitespace or
 * control character. Such a string is a path-absolute URL (WHATWG URL: after one `/`, neither `/`
 * nor a backslash starts an authority, and no tab or newline is left for the parser to strip), so it always
 * resolves to `location.origin`; config.test.ts resolves thousands of strings to hold it to that.
 *
 * @example isSameOriginPath('/account?x=1') // true
 * @example isSameOriginPath('//evil.example/') // false
 */
export function isSameOriginPath(path: string): boolean {
  return /^\/(?!\/)[^\\\0- \x7f]*$/.test(path);
}

/**
 * Validates attribute values into a frozen config. The first problem found is returned beside
 * a config of defaults, so the widget can still show its error state in the right theme.
 *
 * @example
 * const { config, problem } = parseConfig({ ...script.dataset }, 'https://widget.example');
 * if (problem) console.error('[svc] INIT_FAILED', problem); // 'data-success-path missing'
 */
export function parseConfig(raw: RawConfig, apiOrigin: string): ParsedConfig {
  let problem: string | undefined;
  const report = (name: string, why = 'invalid'): void => {
    problem ??= 'data-' + name.replace(/[A-Z]/g, '-$&').toLowerCase() + ' ' + why;
  };
  /** The attribute if it is one of `allowed`; absent or wrong, the first of them. */
  const oneOf = <T extends string>(name: string, allowed: readonly T[]): T => {
    const value = (raw[name] ?? allowed[0]) as T;
    if (allowed.includes(value)) return value;
    report(name);
    return allowed[0]!;
  };
  // `<script data-debug>` means true
  const flag = (name: string): boolean => oneOf(name, ['false', 'true', '']) !== 'false';
  const checkPath = (name: string, required: boolean): void => {
    const path = raw[name];
    if (path == null) {
      if (required) report(name, 'missing');
    } else if (!isSameOriginPath(path)) report(name, 'not same-origin');
  };

  const { partnerId, sessionToken } = raw;
  // Their format is the service's to judge: INVALID_PARTNER or SESSION_INVALID come back as INIT_FAILED.
  if (partnerId != null && sessionToken != null) report('sessionToken', 'with data-partner-id');
  else if (partnerId === sessionToken) report('partnerId', 'missing'); // both absent

  checkPath('successPath', true);

  const clientProofMode = flag('clientProofMode');
  const scopes = (raw.scopes ?? 'isAdult')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s)
    // sorted: the resume key names the set, whatever order the attribute gives (design.md §14)
    .sort() as Scope[];
  // The scope rules are the service's (400 INVALID_SCOPES, INIT_FAILED here, not set up correctly
  // for the visitor): its warning names the nearest known scope for a typo (docs/embedding.md#warnings),
  // and the names and rules cost the loader 150 B (docs/bytes.md).
  const serverVerify = flag('serverVerify');
  checkPath('serverVerifyEndpoint', serverVerify);

  const timeoutRaw = raw.serverVerifyTimeout ?? '30';
  let timeout = /^\d+(\.\d+)?$/.test(timeoutRaw) ? +timeoutRaw : 0;
  if (!(timeout > 0 && timeout <= 600)) {
    report('serverVerifyTimeout');
    timeout = 30;
  }
  // Kept as written like the attributes below: the UI draws only a valid accent (mount.tsx).
  if (raw.accent != null && !ACCENT_PATTERN.test(raw.accent)) report('accent');
  // docs/adult-blind.md#private-attestations: 32 bytes, base64url without padding
  if (raw.redemptionContext != null && !/^[\w-]{43}$/.test(raw.redemptionContext)) report('redemptionContext');
  // Attributes kept as written (partnerId, sessionToken, state, onError, container: its default is
  // autoRender's, svc-global.ts, the one place that reads it; successPath: its `/` is the UI's, flow.ts, …)
  // travel by spreading;
  // so does data-locale, a BCP 47 tag that never fails: ../shared/locale.ts resolves it.
  const config = {
    ...raw,
    apiOrigin,
    scopes,
    theme: oneOf('theme', THEMES),
    debug: flag('debug'),
    clientProofMode,
    serverVerify,
    serverVerifyTimeoutSeconds: timeout,
    layout: oneOf<Layout | 'auto'>('layout', ['auto', 'desktop', 'mobile']),
    size: oneOf<Size>('size', ['regular', 'compact']),
  } as WidgetConfig;
  return { config: Object.freeze(config), problem };
}
