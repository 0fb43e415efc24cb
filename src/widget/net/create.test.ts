import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CreateAnswer } from '../../shared/contract.ts';
import { createRequest, readCreateAnswer } from './create.ts';

const CREATED = { request_id: 'vr_1', poll_token: 'pt_1', deep_link: 'https://svc.example/m/v/vr_1#h=h_1' };

afterEach(() => {
  vi.useRealTimers();
});

describe('readCreateAnswer', () => {
  it('gives the request of a 201 (and of a 200: an idempotent replay)', async () => {
    await expect(readCreateAnswer(Promise.resolve([201, CREATED]))).resolves.toEqual(CREATED);
    await expect(readCreateAnswer(Promise.resolve([200, CREATED]))).resolves.toEqual(CREATED);
  });

  it.each<[string, CreateAnswer, string, boolean]>([
    ['the catalogue code the service sent', [403, { error: 'INVALID_PARTNER' }], 'INVALID_PARTNER', false],
    ['the status for a body that is not JSON', [502], 'HTTP_502', true],
    ['the status for JSON without an error code', [400, null], 'HTTP_400', false],
    ['the status for a JSON error that is not an object', [404, 'no'], 'HTTP_404', false],
    ['a rate limit as retryable', [429, { error: 'RATE_LIMITED' }], 'RATE_LIMITED', true],
    ['a success without a request as retryable', [201], 'HTTP_201', true],
  ])('rejects with %s', async (_name, answer, code, retryable) => {
    await expect(readCreateAnswer(Promise.resolve(answer))).rejects.toMatchObject({ message: code, retryable });
  });

  it('names the Origin the service saw for ORIGIN_NOT_ALLOWED (the command is the service’s warning)', async () => {
    const answer: CreateAnswer = [403, { error: 'ORIGIN_NOT_ALLOWED', message: '…', origin: 'https://shop.example' }];
    await expect(readCreateAnswer(Promise.resolve(answer))).rejects.toMatchObject({
      message: 'ORIGIN_NOT_ALLOWED https://shop.example',
      retryable: false,
    });
  });

  it('gives up the loader’s first request after 15 s without an answer, as a retryable NETWORK error', async () => {
    vi.useFakeTimers();
    // the loader's controller (src/loader/svc-global.ts): aborting it rejects the fetch behind the answer
    const controller = new AbortController();
    const answer = new Promise<CreateAnswer>((_resolve, reject) =>
      controller.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
    );
    const outcome = vi.fn();
    readCreateAnswer(answer, controller).catch(outcome);
    await vi.advanceTimersByTimeAsync(14_999);
    expect(outcome).not.toHaveBeenCalled();
    expect(controller.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(controller.signal.aborted).toBe(true);
    expect(outcome).toHaveBeenCalledWith(expect.objectContaining({ message: 'NETWORK', retryable: true }));
  });

  it('leaves no timer behind once the answer is in', async () => {
    vi.useFakeTimers();
    await readCreateAnswer(Promise.resolve([201, CREATED]));
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects with a retryable NETWORK error when the request could not be sent', async () => {
    await expect(readCreateAnswer(Promise.reject(new TypeError('Failed to fetch')))).rejects.toMatchObject({
      message: 'NETWORK',
      retryable: true,
    });
  });
});

describe("readCreateAnswer, for the loader's first request", () => {
  it('gives it up after 15 s without an answer, aborting it through its controller, with a retryable NETWORK error', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const answer = new Promise<CreateAnswer>((_resolve, reject) =>
      controller.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
    );
    const outcome = expect(readCreateAnswer(answer, controller)).rejects.toMatchObject({
      message: 'NETWORK',
      retryable: true,
    });
    await vi.advanceTimersByTimeAsync(14_999);
    expect(controller.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await outcome;
    expect(controller.signal.aborted).toBe(true);
  });

  it('leaves no timer behind once the answer is in', async () => {
    vi.useFakeTimers();
    await readCreateAnswer(Promise.resolve([201, CREATED]), new AbortController());
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('createRequest', () => {
  it('gives up after 15 s without an answer with a retryable NETWORK error, and aborts the request', async () => {
    vi.useFakeTimers();
    let aborted = false;
    const created = createRequest(
      (signal) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(new DOMException('aborted', 'AbortError'));
          }),
        ),
      new AbortController().signal,
    );
    const outcome = expect(created).rejects.toMatchObject({ message: 'NETWORK', retryable: true });
    await vi.advanceTimersByTimeAsync(14_999);
    expect(aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await outcome;
    expect(aborted).toBe(true);
  });
});
