import type { Signal } from '@preact/signals';
import type { PersonaSummary } from '../protocol/api.ts';
import { COPY } from './copy.ts';

export function PersonaPicker({ personas, selected, disabled }: { personas: PersonaSummary[]; selected: Signal<string>; disabled: boolean }) {
  return (
    <fieldset class="phone-choices" disabled={disabled}>
      <legend>{COPY.personaLegend}</legend>
      {personas.map((persona) => (
        <label key={persona.id} class="phone-choice">
          <input
            type="radio"
            name="persona"
            value={persona.id}
            checked={selected.value === persona.id}
            onChange={() => (selected.value = persona.id)}
          />
          <span>{persona.label}</span>
        </label>
      ))}
    </fieldset>
  );
}
