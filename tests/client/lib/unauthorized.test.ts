import { http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/auth/token.js';
import { api } from '@/lib/http/axios-instance.js';
import { setUnauthorizedHandler } from '@/lib/unauthorized.js';
import { apiError, server } from '../support/server.js';

afterEach(() => setUnauthorizedHandler(undefined));

/** GET /api/products, answered 401 once `release` is called; `arrived` once the request is out. */
function refusedLater() {
  let release: () => void = () => undefined;
  let arrive: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  server.use(
    http.get('/api/products', async () => {
      arrive();
      await released;
      return apiError(401, { message: 'You need to log in to continue' });
    }),
  );
  return { arrived, release };
}

describe('a 401', () => {
  it('ends the session when the refused token is still the current one', async () => {
    const ended = vi.fn();
    setUnauthorizedHandler(ended);
    setToken('token-1');
    server.use(
      http.get('/api/products', () => apiError(401, { message: 'You need to log in to continue' })),
    );
    await expect(api.get('/products')).rejects.toThrow();
    expect(ended).toHaveBeenCalledOnce();
  });

  it('leaves the session alone when the token was replaced while the request was out', async () => {
    const ended = vi.fn();
    setUnauthorizedHandler(ended);
    setToken('token-1');
    const { arrived, release } = refusedLater();
    const request = api.get('/products');
    await arrived;
    // A password change answers a fresh token and revokes the old one the request carried.
    setToken('token-2');
    release();
    await expect(request).rejects.toThrow();
    expect(ended).not.toHaveBeenCalled();
    expect(localStorage.getItem('AccessToken')).toBe('token-2');
  });
});
