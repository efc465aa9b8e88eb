import { http, HttpResponse, type HttpResponseResolver } from 'msw';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadApiClient } from '@/lib/api-client.js';
import { getErrorMessage, getErrorStatus, getRateLimitWait } from '@/lib/api-error.js';
import { apiError, server } from '../support/server.js';

/** What the app's HTTP client really rejects with when GET /api/thing is answered by `answer`. */
async function failure(answer: HttpResponseResolver) {
  server.use(http.get('/api/thing', answer));
  const api = await loadApiClient();
  return api.get('/thing').then(
    () => expect.unreachable('the request should fail'),
    (error: unknown) => error,
  );
}

describe('getErrorMessage', () => {
  it("is the response's message field", async () => {
    const error = await failure(() => apiError(400, { message: 'Incorrect email or password' }));
    expect(getErrorMessage(error)).toBe('Incorrect email or password');
  });

  it('else the message of the first entry of errors', async () => {
    const error = await failure(() =>
      HttpResponse.json(
        {
          errors: [
            { path: 'name', message: 'Name is required' },
            { path: 'price', message: 'Price is required' },
          ],
        },
        { status: 400 },
      ),
    );
    expect(getErrorMessage(error)).toBe('Name is required');
  });

  it('says so when the server cannot be reached or answers without a message', async () => {
    expect(getErrorMessage(await failure(() => HttpResponse.error()))).toBe(
      'The server cannot be reached. Check your connection and try again.',
    );
    const html = await failure(() => HttpResponse.html('<html>', { status: 502 }));
    expect(getErrorMessage(html)).toBe('The request failed (502)');
  });

  it("is the server's message after a 429 too, and its wait is read from Retry-After", async () => {
    const limited = (retryAfter?: string) =>
      failure(() =>
        HttpResponse.json(
          { message: 'Too many requests. Please try again later.' },
          {
            status: 429,
            headers: retryAfter === undefined ? {} : { 'Retry-After': retryAfter },
          },
        ),
      );
    for (const retryAfter of ['45', '7200', undefined]) {
      expect(getErrorMessage(await limited(retryAfter))).toBe(
        'Too many requests. Please try again later.',
      );
    }
    const now = Date.parse('2025-01-01T12:00:00Z');
    expect(getRateLimitWait(await limited('45'), now)).toBe(45);
    expect(getRateLimitWait(await limited('0'), now)).toBe(1);
    expect(getRateLimitWait(await limited('Wed, 01 Jan 2025 12:01:30 GMT'), now)).toBe(90);
    expect(getRateLimitWait(await limited(), now)).toBeUndefined();
    expect(getRateLimitWait(await limited('soon'), now)).toBeUndefined();
    // Only a rate limit: a 503's Retry-After is the server's own absence.
    const away = await failure(() =>
      HttpResponse.json({ message: 'Down' }, { status: 503, headers: { 'Retry-After': '5' } }),
    );
    expect(getRateLimitWait(away, now)).toBeUndefined();
  });

  it('tells a part of the app that could not be loaded from a lost connection', () => {
    const chunk = new TypeError('Failed to fetch dynamically imported module: /assets/x.js');
    expect(getErrorMessage(chunk)).toMatch(/could not be loaded/);
  });

  it('reports a response of an unexpected shape', () => {
    const result = z.object({ message: z.string() }).safeParse({});
    expect(getErrorMessage(result.error)).toBe('The server sent an unexpected response.');
  });

  it('gives the status of an HTTP error', async () => {
    expect(getErrorStatus(await failure(() => apiError(403, { message: 'x' })))).toBe(403);
    expect(getErrorStatus(new Error('x'))).toBeUndefined();
  });
});
