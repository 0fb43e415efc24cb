/**
 * The example identity provider's one page: pick a persona, then approve or decline. Server-rendered
 * HTML with no script at all and one <style> element allowed by its hash, so the page runs under a
 * strict Content-Security-Policy. English, or French when the relying party's `ui_locales` asks
 * for it first.
 */
import { createHash } from 'node:crypto';
import type { PersonaSummary } from '../../../src/protocol/sandbox.ts';

export type LoginLocale = 'en' | 'fr';

const COPY = {
  en: {
    title: 'Example ID',
    tag: 'Sandbox identity provider — test identities only',
    asks: (client: string) => `${client} asks Example ID to confirm:`,
    someClient: 'The age verification service',
    onlyId: 'only that you are one person (a pseudonymous identifier)',
    claims: {
      birthdate: 'your date of birth',
      nationalities: 'your nationalities',
      gender: 'your gender',
    } as Record<string, string>,
    pick: 'Sign in as',
    approve: 'Approve',
    decline: 'Decline',
    noPersona: 'Pick an identity to approve, or decline.',
    expired: 'This sign-in has expired or was already used. Go back and start again.',
  },
  fr: {
    title: 'Example ID',
    tag: 'Fournisseur d’identité de test — identités fictives uniquement',
    asks: (client: string) => `${client} demande à Example ID de confirmer :`,
    someClient: 'Le service de vérification d’âge',
    onlyId: 'seulement que vous êtes une personne unique (un identifiant pseudonyme)',
    claims: {
      birthdate: 'votre date de naissance',
      nationalities: 'vos nationalités',
      gender: 'votre genre',
    } as Record<string, string>,
    pick: 'Se connecter en tant que',
    approve: 'Accepter',
    decline: 'Refuser',
    noPersona: 'Choisissez une identité pour accepter, ou refusez.',
    expired: 'Cette connexion a expiré ou a déjà servi. Revenez en arrière et recommencez.',
  },
} as const;

const STYLE = `
:root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
body { margin: 0; display: grid; place-items: center; min-height: 100vh; background: Canvas; color: CanvasText; }
main { box-sizing: border-box; width: min(26rem, 100% - 2rem); padding: 1.5rem; border: 1px solid GrayText; border-radius: 12px; }
h1 { margin: 0; font-size: 1.4rem; }
.tag { margin: .25rem 0 1rem; color: GrayText; font-size: .85rem; }
ul { padding-left: 1.2rem; }
fieldset { border: 0; padding: 0; margin: 1rem 0; }
label { display: block; padding: .4rem 0; }
.error { color: #c62828; }
.actions { display: flex; gap: .75rem; }
button { flex: 1; padding: .7rem; border-radius: 8px; font: inherit; cursor: pointer; }
button[value="approve"] { background: #1565c0; color: #fff; border: 0; }
`;

const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The page's Content-Security-Policy: nothing but its own style element and form posts. `formOrigins`
 * are the relying parties' redirect origins: a browser checks form-action along the redirects that
 * follow the post, which end at the relying party.
 */
export function loginPageCsp(formOrigins: readonly string[]): string {
  return [
    "default-src 'none'",
    `style-src ${STYLE_HASH}`,
    `form-action 'self' ${formOrigins.join(' ')}`.trim(),
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** The first of the relying party's `ui_locales` we have copy for; English otherwise. */
export function pickLocale(uiLocales: unknown): LoginLocale {
  if (typeof uiLocales !== 'string') return 'en';
  for (const tag of uiLocales.split(' ')) {
    const language = tag.toLowerCase().split('-')[0];
    if (language === 'fr' || language === 'en') return language;
  }
  return 'en';
}

function page(locale: LoginLocale, body: string): string {
  const copy = COPY[locale];
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(copy.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(copy.title)}</h1>
<p class="tag">${escapeHtml(copy.tag)}</p>
${body}
</main>
</body>
</html>
`;
}

export interface LoginPageInput {
  locale: LoginLocale;
  /** the relying party, as registered; null: a default name in the page's language */
  clientName: string | null;
  /** the claims the relying party asked for */
  claims: readonly string[];
  personas: readonly PersonaSummary[];
  /** where the form posts */
  action: string;
  /** shown when a post came without a persona */
  missingPersona?: boolean;
}

/**
 * The sign-in page: the claims asked for, the personas, Approve and Decline.
 *
 * @example renderLoginPage({ locale: 'fr', clientName: 'svc-sandbox', claims: ['birthdate'], personas, action: '/interaction/abc' })
 */
export function renderLoginPage(input: LoginPageInput): string {
  const copy = COPY[input.locale];
  const asked = input.claims.map((claim) => copy.claims[claim]).filter((text): text is string => text !== undefined);
  const items = (asked.length > 0 ? asked : [copy.onlyId]).map((text) => `<li>${escapeHtml(text)}</li>`).join('');
  const personas = input.personas
    .map(
      ({ id, label }) =>
        `<label><input type="radio" name="persona" value="${escapeHtml(id)}" required> ${escapeHtml(label)}</label>`,
    )
    .join('\n');
  return page(
    input.locale,
    `<p>${escapeHtml(copy.asks(input.clientName ?? copy.someClient))}</p>
<ul>${items}</ul>
${input.missingPersona ? `<p class="error" role="alert">${escapeHtml(copy.noPersona)}</p>` : ''}
<form method="post" action="${escapeHtml(input.action)}">
<fieldset>
<legend>${escapeHtml(copy.pick)}</legend>
${personas}
</fieldset>
<div class="actions">
<button type="submit" name="decision" value="approve">${escapeHtml(copy.approve)}</button>
<button type="submit" name="decision" value="decline" formnovalidate>${escapeHtml(copy.decline)}</button>
</div>
</form>`,
  );
}

/** The page shown when the interaction is gone (expired, used, or no cookie). */
export function renderExpiredPage(locale: LoginLocale): string {
  return page(locale, `<p class="error" role="alert">${escapeHtml(COPY[locale].expired)}</p>`);
}
