import type { Signal } from '@preact/signals';
import type { PersonaSummary } from '../../protocol/sandbox.ts';
import type { SandboxCopy } from './copy/index.ts';

/**
 * A persona's label in the page's language, or the service's (English) label for a persona the
 * copy does not know (fixtures/personas.json writes them in English).
 *
 * @example personaLabelOf({ id: 'fr-minor', label: 'Léa Petit — French, 16, female' }, SANDBOX_COPY.de)
 */
export function personaLabelOf(persona: PersonaSummary, copy: SandboxCopy): string {
  return Object.hasOwn(copy.personas, persona.id) ? copy.personas[persona.id]! : persona.label;
}

export function PersonaPicker(props: {
  copy: SandboxCopy;
  personas: PersonaSummary[];
  selected: Signal<string>;
  disabled: boolean;
}) {
  const { copy, personas, selected, disabled } = props;
  return (
    <fieldset class="phone-choices" disabled={disabled}>
      <legend>{copy.personaLegend}</legend>
      {personas.map((persona) => (
        <label key={persona.id} class="phone-choice">
          <input
            type="radio"
            name="persona"
            value={persona.id}
            checked={selected.value === persona.id}
            onChange={() => (selected.value = persona.id)}
          />
          <span>{personaLabelOf(persona, copy)}</span>
        </label>
      ))}
    </fieldset>
  );
}
