/**
 * The few parts of node-oidc-provider 9 the example identity provider uses. The package ships no
 * types (DefinitelyTyped's @types/oidc-provider is not installed); these follow its docs
 * (https://github.com/panva/node-oidc-provider/blob/v9.x/docs/README.md).
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    /** the authorization request's parameters, as sent (`claims` is still a JSON string) */
    params: Record<string, unknown>;
  }

  export interface Grant {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: readonly string[]): void;
    save(): Promise<string>;
  }

  export interface Account {
    accountId: string;
    claims(use: string, scope: string): Promise<Record<string, unknown>> | Record<string, unknown>;
  }

  export type InteractionResult =
    | { login: { accountId: string; remember?: boolean }; consent?: { grantId: string } }
    | { error: string; error_description?: string };

  export class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    readonly issuer: string;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResult,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    readonly Grant: new (properties: { accountId: string; clientId: string }) => Grant;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  export default Provider;
}
