/**
 * The widget's one stylesheet, adopted by every shadow root as a constructed stylesheet: no
 * <style> element and no style attribute in the markup, so it works under a `style-src` without
 * 'unsafe-inline'. The card keeps one size across its states: the height the loader reserves in
 * its container before the UI arrives (src/shared/contract.ts reservedHeight: 400 px, compact 276 px,
 * client proof mode 620 px), which the host and the card inherit, so the number lives in one
 * place (no layout shift: docs/embedding.md#no-layout-shift). Only browsers without constructed stylesheets (Safari before 16.4) get a
 * <style> element instead. Partners theme it with --svc-accent, --svc-radius and --svc-font on
 * the container (custom properties inherit into the shadow root), or with `data-accent`, which
 * adds a sheet of the widget's own (accent.ts) that also keeps text on and around it readable.
 */
// The backgrounds are accent.ts's BACKGROUNDS: the accent's link colour is computed against them.
const DARK =
  '--bg:#17191f;--fg:#f2f3f5;--mut:#b4b9c3;--line:#343945;--lk:#a9bcff;--ok:#4fd69c;--bad:#ff8f87;--warn:#f5c04a';
const LIGHT =
  '--bg:#fff;--fg:#16181d;--mut:#525966;--line:#dcdfe5;--lk:#2747b8;--ok:#16794a;--bad:#b3261e;--warn:#7d5200';

/** The whole stylesheet (tests read it); {@link cssWith} is how the widget takes it. */
export const CSS =
  `:host{all:initial;display:grid;min-height:inherit}` +
  `.card{--a:var(--svc-accent,#3454d1);--r:var(--svc-radius,16px);position:relative;box-sizing:border-box;` +
  `display:flex;flex-flow:column;` +
  `gap:12px;max-width:400px;padding:14px 20px 20px;border:1px solid var(--line);border-radius:var(--r);` +
  `background:var(--bg);color:var(--fg);` +
  `font:15px/1.45 var(--svc-font,system-ui,"Segoe UI",Roboto,sans-serif);text-align:center}` +
  `.dark,.auto{${DARK}}.light{${LIGHT}}@media(prefers-color-scheme:light){.auto{${LIGHT}}}` +
  `.head{display:flex;justify-content:space-between;align-items:center;font-size:13px;color:var(--mut)}` +
  `.badge{padding:0 6px;border:1px solid;border-radius:99px;color:var(--warn);font-size:11px;font-weight:600}` +
  `.state,.compact .text{flex:1;display:flex;flex-flow:column;align-items:center;justify-content:center;gap:10px}` +
  `.title{margin:0;font-size:17px;font-weight:600;line-height:1.3;text-wrap:balance}.help{margin:0;color:var(--mut);text-wrap:pretty}` +
  `.icon{width:56px;height:56px;fill:none;stroke:var(--lk);stroke-width:1.5;stroke-linecap:round;stroke-linejoin:round}` +
  `.icon circle{stroke:var(--line)}` +
  // Motion runs on the compositor (transform of the <svg> itself, never a stroke or a child of it,
  // which would repaint on the main thread every frame): the spinner while something loads, and
  // three beats of the phone, then stillness (the waiting view stays idle: docs/operations.md#idle-benchmark).
  `.spin circle{stroke:var(--lk);stroke-dasharray:18 48}.spin{animation:s 1s linear infinite}` +
  `.check path{stroke:var(--ok)}.cross path,.alert path{stroke:var(--bad)}.phone{animation:p 1.6s ease-in-out 3}` +
  `@keyframes s{to{transform:rotate(1turn)}}@keyframes p{50%{transform:scale(1.1)}}` +
  // The QR code's side is its width and height attributes (Qr.tsx), shrunk to a narrower card.
  `.tile{border-radius:10px;background:#fff}.qr{display:block;max-width:100%;height:auto}` +
  `.button,.link{border:0;font:inherit;cursor:pointer}` +
  `.button{box-sizing:border-box;min-height:44px;margin-top:8px;padding:11px 22px;border-radius:calc(var(--r)/2);` +
  `background:var(--a);color:var(--on,#fff);font-weight:600;text-decoration:none}` +
  `.link{padding:6px 0;background:none;color:var(--lk);text-decoration:underline;text-wrap:balance}` +
  `:focus-visible{outline:3px solid var(--lk);outline-offset:2px}` +
  // The words of a state (.text) and its buttons (.row) lay out as the state's own children;
  // the compact card (data-size="compact") puts them beside the QR code or the icon, buttons in a row.
  `.text,.row{display:contents}.compact .state{flex-flow:wrap;gap:16px;text-align:start}.compact h2{font-size:15px}` +
  // the countdown wraps like any words: in Irish or Portuguese it is wider than the compact column (design.md §20)
  `.compact [role=timer]{font-size:12px}` +
  `.compact .text{flex-basis:120px;min-width:0;align-items:start;gap:6px}` +
  // a QR code at its least side (Qr.tsx) shrinks beside the words in a column under 340 px: 142 px at
  // 320 px, 3 px a module still; a denser one (the wallet's, 3 px a module) goes above them
  `.compact :has(>[width="160"]){max-width:calc(100% - 136px)}` +
  `.compact .row{display:flex;flex-flow:wrap;align-items:center;gap:8px}` +
  `.compact .m>.icon,.compact .m .help{display:none}` +
  `.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}` +
  `@media(prefers-reduced-motion:reduce){*{animation:none!important}}`;

/**
 * The stylesheet followed by `extra` (an accent's rules): what a `<style>` element carries where
 * constructed stylesheets are missing. One function, so the bundle carries the text once.
 *
 * @example h('style', null, cssWith(accentCss('#0a7d4f')))
 */
export function cssWith(extra = ''): string {
  return CSS + extra;
}

let shared: CSSStyleSheet | undefined;

/**
 * Gives a shadow root the widget's stylesheet, plus `extra` (an accent's sheet, accent.ts) when
 * there is one; call it again when `extra` changes. Returns false on browsers without
 * constructed stylesheets (Safari before 16.4): the caller then renders a <style> element instead.
 *
 * @example const legacyCss = !adoptStyles(root); // then render <style>{CSS}</style> into the root
 */
export function adoptStyles(root: ShadowRoot, extra = ''): boolean {
  // every browser with adoptedStyleSheets has replaceSync (Chrome 73, Firefox 101, Safari 16.4)
  if (!('adoptedStyleSheets' in root)) return false;
  const sheet = (css: string): CSSStyleSheet => {
    const made = new CSSStyleSheet();
    made.replaceSync(css);
    return made;
  };
  shared ??= sheet(cssWith());
  root.adoptedStyleSheets = extra ? [shared, sheet(extra)] : [shared];
  return true;
}
