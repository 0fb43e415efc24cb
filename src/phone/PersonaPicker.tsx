import type { Signal } from '@preact/signals';
import type { PersonaSummary } from '../protocol/api.ts';
import type { PhoneCopy } from './copy/index.ts';
import { personaLabelOf } from './words.ts';

export function PersonaPicker(props: {
  copy: PhoneCopy;
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
