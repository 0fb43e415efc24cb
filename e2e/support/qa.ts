/**
 * The QA helpers for journeys that need a verified visitor. They live in the partner SDK's
 * testing entry (server/sdk/testing.ts, published as `@svc/partner-sdk/testing`), the same code a
 * partner's QA team installs; the journeys import them from here only.
 */
import type { Method as ProtocolMethod, Outcome as ProtocolOutcome } from '../../src/protocol/wire.ts';
import type { WidgetState as ContractWidgetState } from '../../src/shared/contract.ts';
import type { Method, Outcome, WidgetState } from '../../server/sdk/testing.ts';

export * from '../../server/sdk/testing.ts';

/** Both ways assignable, or `tsc -p e2e` fails: the SDK's copies are the widget's and the protocol's own types. */
type Covers<A, B extends A> = B;
export type SdkCopiesOfWidgetTypes = [
  Covers<WidgetState, ContractWidgetState>,
  Covers<ContractWidgetState, WidgetState>,
  Covers<Outcome, ProtocolOutcome>,
  Covers<ProtocolOutcome, Outcome>,
  Covers<Method, ProtocolMethod>,
  Covers<ProtocolMethod, Method>,
];
