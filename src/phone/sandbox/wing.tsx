/**
 * The sandbox wing's entry: the phone page loads it with import() (main.tsx) only when open offers
 * the persona picker, so production's page never downloads the picker, its copy or the personas'
 * labels (docs/design.md §4; scripts/check-bundle.ts checks the built page).
 */
import type { SandboxFormProps, SandboxPort, SandboxWing } from '../model.ts';
import type { SandboxCopy } from './copy/index.ts';
import { createSandboxModel, type SandboxModel } from './model.ts';
import { SandboxForm } from './SandboxForm.tsx';

/** The wing with its model, for tests that drive the persona picker without its form. */
export type OpenedSandboxWing = SandboxWing & { model: SandboxModel };

/**
 * @example
 * const loadSandbox = async (port: SandboxPort) =>
 *   (await import('./sandbox/wing.tsx')).openSandboxWing(port, await loadSandboxCopy('fr'));
 */
export function openSandboxWing(port: SandboxPort, copy: SandboxCopy): OpenedSandboxWing {
  const model = createSandboxModel(port);
  return {
    model,
    prepare: model.prepare,
    Form: (props: SandboxFormProps) => <SandboxForm {...props} copy={copy} model={model} />,
  };
}
