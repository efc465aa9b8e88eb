import { http, HttpResponse, type HttpResponseResolver } from 'msw';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadApiClient } from '@/lib/api-client.js';
import { getErrorMessage, getErrorStatus } from '@/lib/api-error.js';
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

  it('says how long to wait after a 429, from Retry-After', async () => {
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
    const message = async (retryAfter?: string) => getErrorMessage(await limited(retryAfter));
    expect(await message('120')).toBe('Too many attempts. Try again in 2 minutes.');
    expect(await message('61')).toBe('Too many attempts. Try again in 2 minutes.');
    expect(await message('45')).toBe('Too many attempts. Try again in 45 seconds.');
    expect(await message('1')).toBe('Too many attempts. Try again in 1 second.');
    expect(await message('7200')).toBe('Too many attempts. Try again in 2 hours.');
    // Without the header, the server's own message.
    expect(await message()).toBe('Too many requests. Please try again later.');
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
