import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/protocol/errors.ts';
import { ServiceError } from '../errors.ts';
import {
  INVALID_REQUEST_BODY,
  isJsonContentType,
  parseJsonBody,
  readJsonObject,
  readOneOf,
  readOptionalBoolean,
  readSoleStringField,
  readString,
} from './body.ts';

function requestWith(body: unknown, bodyIsInvalidJson = false): FastifyRequest {
  return { body, bodyIsInvalidJson } as FastifyRequest;
}

function errorOf(fn: () => unknown): ServiceError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('did not throw');
}

describe('isJsonContentType', () => {
  it.each([
    'application/json',
    'APPLICATION/JSON',
    'application/json; charset=utf-8',
    'application/json ;charset=utf-8',
  ])('accepts %j', (value) => {
    expect(isJsonContentType(value)).toBe(true);
  });

  it.each([undefined, '', 'text/plain;charset=UTF-8', 'application/jsonp', 'application/json-seq', '*/*'])(
    'refuses %j',
    (value) => {
      expect(isJsonContentType(value)).toBe(false);
    },
  );
});

describe('parseJsonBody', () => {
  it.each([
    '{"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '{"constructor":"x"}',
    '{"a":[1,{"b":{"prototype":null}}]}',
    '{"\\u005f_proto__":{}}',
    '[{"__proto__":[]}]',
  ])('refuses %s: a prototype key at any depth, escaped or not', (text) => {
    expect(parseJsonBody(text)).toEqual({ invalid: 'prototype key' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps JSON whose values, not keys, name a prototype property, and tells text that does not parse', () => {
    expect(parseJsonBody('{"grant_code":"__proto__","note":"constructor prototype \\u0041"}')).toEqual({
      value: { grant_code: '__proto__', note: 'constructor prototype A' },
    });
    expect(parseJsonBody('["__proto__"]')).toEqual({ value: ['__proto__'] });
    expect(parseJsonBody('{"a":')).toEqual({ invalid: 'not JSON' });
  });
});

describe('readJsonObject', () => {
  it('returns a JSON object body as it is', () => {
    expect(readJsonObject(requestWith({ a: 1 }), INVALID_REQUEST_BODY)).toEqual({ a: 1 });
  });

  it.each([undefined, null, [], 'text', 3])('refuses %j with the route code and the catalogue message', (body) => {
    const error = errorOf(() => readJsonObject(requestWith(body), INVALID_REQUEST_BODY));
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.message).toBe(ERRORS.INVALID_REQUEST.message);
  });

  it('answers a body that does not parse, or is not an object, with the code and messages the route chose', () => {
    const rules = { code: 'INVALID_JSON', notJsonMessage: 'not json', notObjectMessage: 'not an object' } as const;
    expect(errorOf(() => readJsonObject(requestWith(undefined, true), rules))).toMatchObject({
      code: 'INVALID_JSON',
      message: 'not json',
    });
    expect(errorOf(() => readJsonObject(requestWith([1]), rules))).toMatchObject({
      code: 'INVALID_JSON',
      message: 'not an object',
    });
  });
});

describe('field readers', () => {
  it('reads own fields only, never what the prototype holds under a name', () => {
    const inherited = Object.create({ h: 'from the prototype', client_proof_mode: true }) as Record<string, unknown>;
    expect(errorOf(() => readString(inherited, 'h')).code).toBe('INVALID_REQUEST');
    expect(readOptionalBoolean(inherited, 'client_proof_mode', false)).toBe(false);
    expect(errorOf(() => readString({}, 'toString')).code).toBe('INVALID_REQUEST');
  });

  it('reads an optional boolean, its default when absent, and refuses anything else', () => {
    expect(readOptionalBoolean({}, 'flag', false)).toBe(false);
    expect(readOptionalBoolean({ flag: true }, 'flag', false)).toBe(true);
    expect(errorOf(() => readOptionalBoolean({ flag: 'true' }, 'flag', false)).code).toBe('INVALID_REQUEST');
  });

  it('reads one of a list, null when absent and optional', () => {
    expect(readOneOf('a', ['a', 'b'], 'x', true)).toBe('a');
    expect(readOneOf(undefined, ['a', 'b'], 'x', false)).toBeNull();
    expect(errorOf(() => readOneOf(undefined, ['a', 'b'], 'x', true)).code).toBe('INVALID_REQUEST');
    expect(errorOf(() => readOneOf('c', ['a', 'b'], 'x', false)).code).toBe('INVALID_REQUEST');
  });

  it('reads the sole string field of a partner API body and says what is wrong otherwise', () => {
    expect(readSoleStringField(requestWith({ pass_token: 'p_x' }), 'pass_token')).toBe('p_x');
    expect(errorOf(() => readSoleStringField(requestWith(undefined, true), 'pass_token')).message).toBe(
      'Body is not valid JSON.',
    );
    expect(errorOf(() => readSoleStringField(requestWith([]), 'pass_token')).message).toBe(
      'Body must be a JSON object with pass_token.',
    );
    expect(errorOf(() => readSoleStringField(requestWith({ pass_token: 1 }), 'pass_token')).message).toBe(
      'pass_token is required and must be a string.',
    );
    expect(errorOf(() => readSoleStringField(requestWith({ pass_token: 'p', x: 1 }), 'pass_token')).message).toBe(
      'The body holds only pass_token; unexpected: x.',
    );
  });
});
