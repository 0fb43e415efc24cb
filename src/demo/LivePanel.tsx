import { useRef } from 'preact/hooks';
import { LOCALES } from '../protocol/wire.ts';
import { SCOPES, type Scope } from '../protocol/scopes.ts';
import { ACCENTS } from './gallery.ts';
import { DEMO_PARTNER_ID, DEMO_PARTNER_ORIGIN, type LiveModel, type LiveSettings } from './live.ts';

function Choice<K extends 'theme' | 'locale' | 'layout' | 'size'>({
  model,
  field,
  legend,
  values,
}: {
  model: LiveModel;
  field: K;
  legend: string;
  values: readonly LiveSettings[K][];
}) {
  return (
    <fieldset class="control">
      <legend>{legend}</legend>
      {values.map((value) => (
        <label key={value}>
          <input
            type="radio"
            name={`live-${field}`}
            value={value}
            checked={model.settings.value[field] === value}
            onChange={() => model.change({ [field]: value } as Partial<LiveSettings>)}
          />
          {value}
        </label>
      ))}
    </fieldset>
  );
}

/** A real request against this service, mounted through window.SVC.render. */
export function LivePanel({ model, partnerUrl }: { model: LiveModel; partnerUrl: string }) {
  const slot = useRef<HTMLDivElement>(null);
  const { scopes } = model.settings.value;
  const toggleScope = (scope: Scope) => {
    const next = scopes.includes(scope) ? scopes.filter((s) => s !== scope) : [...scopes, scope];
    model.change({ scopes: next.length > 0 ? next : ['isAdult'] });
  };
  const wrongOrigin = location.origin !== DEMO_PARTNER_ORIGIN;

  return (
    <section aria-labelledby="live-title" class="live">
      <h2 id="live-title">Live flow</h2>
      <p class="lede">
        A real verification request for the sandbox partner <code>{DEMO_PARTNER_ID}</code>, mounted with{' '}
        <code>window.SVC.render</code>. Approve it from the phone page, then watch the states go by.
      </p>
      {wrongOrigin && (
        <p class="warning" role="note">
          <code>{DEMO_PARTNER_ID}</code> is registered for {DEMO_PARTNER_ORIGIN}; from {location.origin} the service
          refuses the request (INIT_FAILED). Open this page at {DEMO_PARTNER_ORIGIN}/demo.
        </p>
      )}
      <div class="live-grid">
        <form class="controls" onSubmit={(event) => event.preventDefault()}>
          <fieldset class="control">
            <legend>Rail</legend>
            <label>
              <input type="radio" name="live-rail" value="standard" checked />
              STANDARD (data-partner-id)
            </label>
            <label>
              <input type="radio" name="live-rail" value="adult_blind" disabled aria-describedby="blind-why" />
              ADULT_BLIND (data-session-token)
            </label>
            <p id="blind-why" class="hint">
              A session token is issued by a partner’s backend for that partner’s own origin, so this page cannot use
              one. Try the ADULT_BLIND rail on the <a href={partnerUrl}>example partner site</a>.
            </p>
          </fieldset>
          <Choice model={model} field="theme" legend="Theme" values={['dark', 'light', 'auto']} />
          <Choice model={model} field="locale" legend="Locale" values={[...LOCALES, 'auto']} />
          <Choice model={model} field="layout" legend="Layout" values={['auto', 'desktop', 'mobile']} />
          <Choice model={model} field="size" legend="Size" values={['regular', 'compact']} />
          <fieldset class="control">
            <legend>Accent</legend>
            {[{ name: 'default', value: null }, ...ACCENTS].map(({ name, value }) => (
              <label key={name}>
                <input
                  type="radio"
                  name="live-accent"
                  value={value ?? ''}
                  checked={model.settings.value.accent === value}
                  onChange={() => model.change({ accent: value })}
                />
                {value ?? name}
              </label>
            ))}
          </fieldset>
          <fieldset class="control">
            <legend>Scopes</legend>
            {SCOPES.map((scope) => (
              <label key={scope}>
                <input
                  type="checkbox"
                  name="live-scopes"
                  value={scope}
                  checked={scopes.includes(scope)}
                  onChange={() => toggleScope(scope)}
                />
                {scope}
              </label>
            ))}
            <p class="hint">isMale with isFemale is refused by design: the widget then shows INIT_FAILED.</p>
          </fieldset>
          <div class="buttons">
            <button type="button" class="primary" onClick={() => void model.start(slot.current!)}>
              {model.running.value ? 'Restart' : 'Start a live request'}
            </button>
            <button type="button" onClick={() => model.reset()} disabled={!model.running.value}>
              Reset
            </button>
            <button type="button" onClick={() => model.stop()} disabled={!model.running.value}>
              Remove
            </button>
          </div>
        </form>
        <div class="live-stage">
          <div
            id="live-widget"
            ref={slot}
            class="live-slot"
            data-testid="live-widget"
            {...(model.settings.value.locale === 'auto' ? {} : { lang: model.settings.value.locale })}
          />
          {model.loadError.value && (
            <p class="warning" role="alert">
              {model.loadError.value}
            </p>
          )}
          <p class="phone-link">
            {model.deepLink.value ? (
              <a href={model.deepLink.value} target="_blank" rel="noopener" data-testid="live-phone-link">
                Open the phone page for this request
              </a>
            ) : (
              <span class="hint">The phone page link appears once a request is waiting.</span>
            )}
          </p>
          <h3 id="events-title">Events</h3>
          <ol class="events" aria-labelledby="events-title" data-testid="live-events">
            {model.events.value.map((event) => (
              <li key={event.at + event.text} data-kind={event.kind}>
                <span class="event-kind">{event.kind}</span> {event.text}
              </li>
            ))}
          </ol>
        </div>
      </div>
    </section>
  );
}
