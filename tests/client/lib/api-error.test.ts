import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { getErrorMessage, getErrorStatus } from '@/lib/api-error.js';
import { httpError } from '../support/api.js';

describe('getErrorMessage', () => {
  it("is the response's message field", () => {
    expect(getErrorMessage(httpError(400, { message: 'Incorrect email or password' }))).toBe(
      'Incorrect email or password',
    );
  });

  it('else the message of the first entry of errors', () => {
    const error = httpError(400, {
      errors: [
        { path: 'name', message: 'Name is required' },
        { path: 'price', message: 'Price is required' },
      ],
    });
    expect(getErrorMessage(error)).toBe('Name is required');
  });

  it('says so when the server cannot be reached or answers without a message', () => {
    expect(getErrorMessage(Object.assign(new Error('Network Error'), { isAxiosError: true }))).toBe(
      'The server cannot be reached. Check your connection and try again.',
    );
    expect(getErrorMessage(httpError(502, '<html>'))).toBe('The request failed (502)');
  });

  it('says how long to wait after a 429, from Retry-After', () => {
    const limited = (retryAfter?: string) =>
      Object.assign(httpError(429, { message: 'Too many requests. Please try again later.' }), {
        response: {
          status: 429,
          data: { message: 'Too many requests. Please try again later.' },
          headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
        },
      });
    expect(getErrorMessage(limited('120'))).toBe('Too many attempts. Try again in 2 minutes.');
    expect(getErrorMessage(limited('61'))).toBe('Too many attempts. Try again in 2 minutes.');
    expect(getErrorMessage(limited('45'))).toBe('Too many attempts. Try again in 45 seconds.');
    expect(getErrorMessage(limited('1'))).toBe('Too many attempts. Try again in 1 second.');
    expect(getErrorMessage(limited('7200'))).toBe('Too many attempts. Try again in 2 hours.');
    // Without the header, the server's own message.
    expect(getErrorMessage(limited())).toBe('Too many requests. Please try again later.');
  });

  it('tells a part of the app that could not be loaded from a lost connection', () => {
    const chunk = new TypeError('Failed to fetch dynamically imported module: /assets/x.js');
    expect(getErrorMessage(chunk)).toMatch(/could not be loaded/);
  });

  it('reports a response of an unexpected shape', () => {
    const result = z.object({ message: z.string() }).safeParse({});
    expect(getErrorMessage(result.error)).toBe('The server sent an unexpected response.');
  });

  it('gives the status of an HTTP error', () => {
    expect(getErrorStatus(httpError(403, { message: 'x' }))).toBe(403);
    expect(getErrorStatus(new Error('x'))).toBeUndefined();
  });
});
