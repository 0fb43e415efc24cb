/**
 * Request bodies, for every route (design.md §3, §6). One content-type parser keeps the exact bytes
 * received (the HMAC hashes them, never re-serialised JSON) and parses JSON whatever the declared
 * type, so the loader's preflight-free text/plain body reads like application/json. Each route
 * then says, through the functions below, which content type it takes and which catalogue code a
 * bad body gets: INVALID_JSON on the billing session (docs/adult-blind.md's table), INVALID_REQUEST
 * elsewhere.
 *
 * JSON holding a key named `__proto__`, `constructor` or `prototype`, at any depth, is refused like
 * JSON that does not parse (design.md §1, the edge): nothing the service reads is named so, and
 * such a key is how a body reaches an object's prototype once code copies or merges it. Fields are
 * read as own properties only.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LOCALES } from '../../src/protocol/wire.ts';
import type { RequestChoices } from '../domain/index.ts';
import { ServiceError } from '../errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** the exact bytes received, for the HMAC body hash (never re-serialised JSON) */
    rawBody: Buffer;
    /**
     * true when a body was sent but is not valid JSON, or holds a prototype key (`__proto__`,
     * `constructor`, `prototype`); `body` is then undefined (the route's rules decide what that means)
     */
    bodyIsInvalidJson: boolean;
  }
}

export type JsonObject = Record<string, unknown>;

/** How a route answers a body that is not a JSON object. */
export interface BodyRules {
  /** the catalogue code */
  readonly code: 'INVALID_REQUEST' | 'INVALID_JSON';
  /** the message when the body does not parse; the catalogue's when absent */
  readonly notJsonMessage?: string;
  /** the message when it parses to something else than an object (or is empty); the catalogue's when absent */
  readonly notObjectMessage?: string;
}

/** The loader's, the phone's and the signed partner variants' bodies: INVALID_REQUEST with the catalogue message. */
export const INVALID_REQUEST_BODY: BodyRules = { code: 'INVALID_REQUEST' };

const EMPTY = Buffer.alloc(0);

/** Keys that name an object's prototype machinery: refused in every body (design.md §1, the edge). */
const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * True for `__proto__`, `constructor` and `prototype`.
 *
 * @example isPrototypeKey('__proto__') // true
 */
export function isPrototypeKey(key: string): boolean {
  return PROTOTYPE_KEYS.has(key);
}

/** Only text naming one (directly or through a \u escape) can hold one: the walk is skipped otherwise. */
const MAY_HOLD_PROTOTYPE_KEY = /__proto__|constructor|prototype|\\u/;

/** True when a parsed JSON value holds a prototype key in any of its objects. */
function holdsPrototypeKey(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next !== 'object' || next === null) continue;
    if (Array.isArray(next)) {
      for (const item of next) pending.push(item);
      continue;
    }
    // JSON.parse makes `__proto__` an own property, so Object.keys lists it
    for (const key of Object.keys(next)) {
      if (isPrototypeKey(key)) return true;
      pending.push((next as Record<string, unknown>)[key]);
    }
  }
  return false;
}

/**
 * The JSON value of `text`, or `undefined` with `invalid` when it does not parse or holds a
 * prototype key.
 *
 * @example parseJsonBody('{"__proto__":{}}') // { invalid: 'prototype key' }
 */
export function parseJsonBody(text: string): { value: unknown } | { invalid: 'not JSON' | 'prototype key' } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { invalid: 'not JSON' };
  }
  if (MAY_HOLD_PROTOTYPE_KEY.test(text) && holdsPrototypeKey(value)) return { invalid: 'prototype key' };
  return { value };
}

/**
 * Installs the one parser for every content type and the request fields it fills.
 *
 * @example registerBodyReading(app) // once, in createApp, before any route
 */
export function registerBodyReading(app: FastifyInstance): void {
  app.decorateRequest('rawBody', null as unknown as Buffer);
  app.decorateRequest('bodyIsInvalidJson', false);
  app.addHook('onRequest', (request, _reply, done) => {
    request.rawBody = EMPTY;
    done();
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    request.rawBody = body;
    if (body.length === 0) return done(null, undefined);
    const parsed = parseJsonBody(body.toString('utf8'));
    if ('invalid' in parsed) {
      request.bodyIsInvalidJson = true;
      return done(null, undefined);
    }
    done(null, parsed.value);
  });
}

/**
 * True for `application/json`, any case, with or without parameters.
 *
 * @example isJsonContentType('application/json; charset=utf-8') // true
 */
export function isJsonContentType(value: string | undefined): boolean {
  return value?.split(';', 1)[0]?.trim().toLowerCase() === 'application/json';
}

/** Throws 415 UNSUPPORTED_MEDIA_TYPE unless the request says it sends JSON (every signed POST). */
export function requireJsonContentType(request: FastifyRequest): void {
  const contentType = request.headers['content-type'];
  if (!isJsonContentType(contentType))
    throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', { cause: `content-type ${contentType}` });
}

/**
 * The body as a JSON object; otherwise throws `rules.code`. An empty body is not an object.
 *
 * @example const body = readJsonObject(request, INVALID_REQUEST_BODY)
 */
export function readJsonObject(request: FastifyRequest, rules: BodyRules): JsonObject {
  if (request.bodyIsInvalidJson)
    throw new ServiceError(rules.code, {
      message: rules.notJsonMessage,
      cause: 'body is not JSON, or holds a prototype key',
    });
  const body: unknown = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ServiceError(rules.code, { message: rules.notObjectMessage, cause: 'body is not a JSON object' });
  }
  return body as JsonObject;
}

function invalid(cause: string, message?: string): ServiceError {
  return new ServiceError('INVALID_REQUEST', { cause, message });
}

/** `body[name]` when the body holds it itself, never what its prototype has under that name. */
function own(body: JsonObject, name: string): unknown {
  return Object.hasOwn(body, name) ? body[name] : undefined;
}

/**
 * `body[name]` when it is a string; otherwise 400 INVALID_REQUEST.
 *
 * @example const h = readString(body, 'h')
 */
export function readString(body: JsonObject, name: string): string {
  const value = own(body, name);
  if (typeof value !== 'string') throw invalid(`${name} must be a string`);
  return value;
}

/**
 * `body[name]` when it is a boolean, `fallback` when it is absent; otherwise 400 INVALID_REQUEST.
 *
 * @example readOptionalBoolean(body, 'client_proof_mode', false)
 */
export function readOptionalBoolean(body: JsonObject, name: string, fallback: boolean): boolean {
  const value = own(body, name) ?? fallback;
  if (typeof value !== 'boolean') throw invalid(`${name} must be a boolean`);
  return value;
}

/**
 * `value` when it is one of `allowed`; null when it is absent and not required; otherwise 400
 * INVALID_REQUEST.
 *
 * @example readOneOf(body.outcome, ['approved', 'failed', 'cancelled'], 'outcome', true)
 */
export function readOneOf<T extends string>(
  value: unknown,
  allowed: readonly T[],
  name: string,
  required: boolean,
): T | null {
  if (value === undefined && !required) return null;
  if (!allowed.includes(value as T)) throw invalid(`${name} must be one of ${allowed.join(', ')}`);
  return value as T;
}

/**
 * What a verification request's body chooses besides who asks: `client_proof_mode` (a boolean,
 * default false) and `locale` (one of the 24 LOCALES, default fr); otherwise 400 INVALID_REQUEST.
 *
 * @example readRequestChoices({ locale: 'en' }) // { clientProofMode: false, locale: 'en' }
 */
export function readRequestChoices(body: JsonObject): RequestChoices {
  return {
    clientProofMode: readOptionalBoolean(body, 'client_proof_mode', false),
    locale: readOneOf(own(body, 'locale') ?? 'fr', LOCALES, 'locale', true)!,
  };
}

/**
 * The one string field of a body that must hold exactly that field (the partner API's bodies);
 * otherwise 400 INVALID_REQUEST with a message saying what is wrong.
 *
 * @example const grantCode = readSoleStringField(request, 'grant_code')
 */
export function readSoleStringField(request: FastifyRequest, field: string): string {
  const body = readJsonObject(request, {
    code: 'INVALID_REQUEST',
    notJsonMessage: 'Body is not valid JSON.',
    notObjectMessage: `Body must be a JSON object with ${field}.`,
  });
  const value = own(body, field);
  if (typeof value !== 'string') throw invalid(`${field} missing`, `${field} is required and must be a string.`);
  const extra = Object.keys(body).filter((key) => key !== field);
  if (extra.length > 0) {
    throw invalid(
      'extra fields',
      `The body holds only ${field}; unexpected: ${extra.slice(0, 5).join(', ').slice(0, 100)}.`,
    );
  }
  return value;
}
