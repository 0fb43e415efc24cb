/**
 * @jsxRuntime classic
 * @jsx h
 */
import { h } from 'preact';
/** The state icons: one ring, one stroke; `spin` is the ring alone, animated. */
export type IconName = 'spin' | 'check' | 'cross' | 'clock' | 'phone' | 'alert';

const STROKES: Record<IconName, string> = {
  spin: '',
  check: 'M7.5 12.5l3 3 6-6.5',
  cross: 'M9 9l6 6m0-6l-6 6',
  clock: 'M12 7.5V12l3 2',
  phone: 'M9.5 6.5h5v11h-5zM11.5 15h1',
  alert: 'M12 7.5v5.5m0 3v.01',
};

export function Icon({ name }: { name: IconName }) {
  return (
    <svg class={'icon ' + name} viewBox="0 0 24 24" aria-hidden>
      <circle cx="12" cy="12" r="10.5" />
      {STROKES[name] && <path d={STROKES[name]} />}
    </svg>
  );
}
