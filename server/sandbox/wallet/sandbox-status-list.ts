/**
 * The sandbox's Status List Token (design.md §15), served at `{app_url}/sandbox/status/1` (status-routes.ts):
 * the list encoded by @sd-jwt/jwt-status-list (draft-ietf-oauth-status-list §4.1: bits packed from
 * the least significant bit, ZLIB DEFLATE, base64url), signed ES256 under the sandbox DS key with
 * its certificate in `x5c`, `typ` `statuslist+jwt`, `sub` = the list's URI.
 */
import { ES256 } from '@sd-jwt/crypto-nodejs';
import { createHeaderAndPayload, StatusList } from '@sd-jwt/jwt-status-list';
import type { SandboxIssuer } from './sandbox-issuer.ts';

/** The path the sandbox publishes its list at, under `app_url`. */
export const SANDBOX_STATUS_LIST_PATH = '/sandbox/status/1';

/** How many credentials the sandbox list covers. */
export const SANDBOX_STATUS_LIST_SIZE = 1024;

/** The sandbox's fixed entries: index 1 revoked, index 2 suspended, every other valid. */
export const SANDBOX_REVOKED_INDEX = 1;
/** The entry a sandbox credential points to unless it is presented revoked. */
export const SANDBOX_VALID_INDEX = 0;
export const SANDBOX_SUSPENDED_INDEX = 2;

const encodePart = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A signed Status List Token for `uri`.
 *
 * @example const token = await createStatusListToken({ issuer, uri: `${appUrl}/sandbox/status/1`, now })
 */
export async function createStatusListToken(input: {
  issuer: SandboxIssuer;
  uri: string;
  /** ms since the epoch */
  now: number;
  /** the statuses by index; default: the sandbox's fixed entries */
  statuses?: ReadonlyMap<number, number>;
  size?: number;
  bits?: 1 | 2 | 4 | 8;
  ttlSeconds?: number;
  validitySeconds?: number;
  /** negative tests: another `sub` or `typ` */
  sub?: string;
  typ?: string;
}): Promise<string> {
  const size = input.size ?? SANDBOX_STATUS_LIST_SIZE;
  const statuses =
    input.statuses ??
    new Map([
      [SANDBOX_REVOKED_INDEX, 1],
      [SANDBOX_SUSPENDED_INDEX, 2],
    ]);
  const values = Array.from({ length: size }, (_, index) => statuses.get(index) ?? 0);
  const list = new StatusList(values, input.bits ?? 2);
  const iat = Math.floor(input.now / 1000);
  const { header, payload } = createHeaderAndPayload(
    list,
    {
      iss: 'https://issuer.sandbox.svc.invalid',
      sub: input.sub ?? input.uri,
      iat,
      exp: iat + (input.validitySeconds ?? 24 * 3600),
      ttl: input.ttlSeconds ?? 300,
    },
    {
      alg: 'ES256',
      typ: 'statuslist+jwt',
      x5c: input.issuer.x5chain.map((der) => Buffer.from(der).toString('base64')),
    },
  );
  const signingInput = `${encodePart({ ...header, typ: input.typ ?? header.typ })}.${encodePart(payload)}`;
  const sign = await ES256.getSigner({ ...input.issuer.dsKey });
  return `${signingInput}.${await sign(signingInput)}`;
}
