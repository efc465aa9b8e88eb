import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { M } from '../../src/shared/messages.js';
import {
  accounts,
  expectMessage,
  fingerprint,
  httpClient,
  newEmail,
  PASSWORD,
  type ApiRequest,
  type ApiResponse,
  type SignedIn,
} from './support/accounts.js';
import { build } from './support/build.js';
import { createProduct } from './support/products.js';

const JSON_TYPE = { 'content-type': 'application/json' };
const HUGE = `{"x":"${'y'.repeat(70 * 1024)}"}`;

/** Every answer to bad input: a 4xx JSON body with a non-empty `message` string, never a 5xx. */
function expectClientError(res: ApiResponse, status: number, message?: string) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body.message).toEqual(message ?? expect.stringMatching(/\S/));
}

describe('bad input on every account endpoint', async () => {
  const server = await build();
  const steps = accounts(server);
  const { api } = steps;
  const { token, email } = await steps.signedIn();
  const stranger = newEmail('stranger');

  interface Endpoint {
    method: 'POST' | 'PATCH';
    url: string;
    /** A well-formed body (its keys are the fields); nothing here changes state for good. */
    valid: Record<string, unknown>;
    auth?: boolean;
  }
  const post = (url: string, valid: Record<string, unknown>): Endpoint => ({
    method: 'POST',
    url,
    valid,
  });
  const code = { token: '123456', email: stranger };
  const endpoints: Endpoint[] = [
    post('/api/auth/signup', { name: 'A', email, password: PASSWORD, confirmPassword: PASSWORD }),
    post('/api/auth/confirm-account', code),
    post('/api/auth/resend-confirmation', { email: stranger }),
    post('/api/auth/login', { email: stranger, password: PASSWORD }),
    post('/api/auth/forgot-password', { email: stranger }),
    post('/api/auth/validate-password-token', code),
    post('/api/auth/reset-password/123456', {
      password: PASSWORD,
      confirmPassword: PASSWORD,
      email: stranger,
    }),
    { method: 'PATCH', url: '/api/auth/profile', valid: { name: 'Same', email }, auth: true },
    {
      ...post('/api/auth/profile/change-password', {
        currentPassword: 'not-the-Password-1',
        newPassword: PASSWORD,
        confirmNewPassword: PASSWORD,
      }),
      auth: true,
    },
  ];

  const every = (fields: string[], value: unknown) =>
    Object.fromEntries(fields.map((field) => [field, value]));
  /** [what is wrong, the expected status, the request's body and headers, the expected message] */
  type Case = [string, number, (fields: string[]) => Pick<ApiRequest, 'body' | 'headers'>, string?];
  const json = (body: string) => () => ({ body, headers: JSON_TYPE });
  const typed = (type: string, body: string) => () => ({ body, headers: { 'content-type': type } });
  const cases: Case[] = [
    ['numbers for strings', 400, (f) => ({ body: every(f, 123456) })],
    ['arrays for strings', 400, (f) => ({ body: every(f, ['a@example.com']) })],
    ['null for every field', 400, (f) => ({ body: every(f, null) })],
    ['objects for strings', 400, (f) => ({ body: every(f, { $gt: '' }) })],
    ['booleans for strings', 400, (f) => ({ body: every(f, true) })],
    ['10 000-character strings', 400, (f) => ({ body: every(f, 'a1'.repeat(5000)) })],
    ['an empty object', 400, () => ({ body: {} })],
    ['a JSON array', 400, json('[]'), M.bodyRequired],
    ['JSON null', 400, json('null'), M.bodyRequired],
    ['a JSON string', 400, json('"hello"'), M.bodyRequired],
    ['a JSON number', 400, json('42'), M.bodyRequired],
    ['no body at all', 400, () => ({}), M.bodyRequired],
    ['an empty JSON body', 400, json(''), M.bodyRequired],
    ['invalid JSON', 400, json('{"email": '), M.badJson],
    ['a __proto__ key', 400, json('{"__proto__": {"confirmed": 1}}'), M.badJson],
    ['a body over 64 KB', 413, json(HUGE), M.bodyTooLarge],
    ['text/plain', 415, typed('text/plain', 'hello'), M.unsupportedMedia],
    ['a form body', 415, typed('application/x-www-form-urlencoded', 'a=b'), M.unsupportedMedia],
    ['XML', 415, typed('application/xml', '<email/>'), M.unsupportedMedia],
    ['a body without a content-type', 415, () => ({ body: '{}' }), M.unsupportedMedia],
  ];

  describe.each(endpoints.map((e) => [`${e.method} ${e.url}`, e] as const))(
    '%s',
    (_name, endpoint) => {
      const send = (parts: Pick<ApiRequest, 'body' | 'headers'>) =>
        api({
          method: endpoint.method,
          url: endpoint.url,
          ...(endpoint.auth ? { token } : {}),
          ...parts,
        });

      it.each(cases)('%s: %i', async (_label, status, make, message) => {
        expectClientError(await send(make(Object.keys(endpoint.valid))), status, message);
      });

      it('unknown fields are ignored: the same answer as without them', async () => {
        const plain = await send({ body: endpoint.valid });
        const extra = await send({
          body: { ...endpoint.valid, id: 'x', confirmed: true, isAdmin: true, owner: 'me' },
        });
        expect(plain.status).toBeLessThan(500);
        expect(fingerprint(extra)).toEqual(fingerprint(plain));
      });
    },
  );

  it('the signed-in user is untouched by all of the above', async () => {
    const res = await steps.user(token);
    expect(res.body.user).toMatchObject({ name: 'Same', email });
    await steps.login(email, PASSWORD);
  });

  describe('POST /api/auth/logout (it takes no body)', () => {
    const transportCases = cases.filter(([, status]) => status === 413 || status === 415);
    it.each(transportCases)(
      '%s: %i, before the token is even looked at',
      async (_l, status, make, message) => {
        expectClientError(
          await api({ url: '/api/auth/logout', token, ...make([]) }),
          status,
          message,
        );
      },
    );

    it('an empty body said to be JSON: as without one, as many clients send it', async () => {
      const other = await steps.login(email, PASSWORD);
      const empty = { body: '', headers: { ...JSON_TYPE, 'content-length': '0' } };
      const product = await createProduct(server, {
        token: other,
        headers: { authorization: `Bearer ${other}` },
      } as SignedIn);
      const removed = await api({
        method: 'DELETE',
        url: `/api/products/${product.id}`,
        token: other,
        ...empty,
      });
      expectMessage(removed, 200, M.productDeleted);
      expectMessage(
        await api({ url: '/api/auth/logout', token: other, ...empty }),
        200,
        M.loggedOut,
      );
      expectMessage(await steps.user(other), 401, M.unauthorized);
      // A route that needs a body still says so.
      expectClientError(await api({ url: '/api/auth/login', ...empty }), 400, M.bodyRequired);
    });

    it('invalid JSON: 400, and the token still works', async () => {
      const res = await api({
        url: '/api/auth/logout',
        token,
        body: '{"x": ',
        headers: JSON_TYPE,
      });
      expectClientError(res, 400, M.badJson);
      expect((await steps.user(token)).status).toBe(200);
    });
  });

  describe('tokens on GET /api/auth/user', () => {
    it.each([
      ['no header', undefined],
      ['"Bearer" alone', 'Bearer'],
      ['"Bearer " and nothing', 'Bearer '],
      ['a JWT-looking token', 'Bearer x.y.z'],
      ['another scheme', 'Basic YWRhOnB3'],
      ['a 10 KB value', `Bearer ${'a'.repeat(10 * 1024)}`],
      ['a well-formed token nobody was given', `Bearer ${'A'.repeat(43)}`],
      ['the real token with a suffix', () => `Bearer ${token}x`],
      ['the real token twice', () => `Bearer ${token} ${token}`],
      ['the bare token without a scheme', () => token],
    ])('%s: 401', async (_label, header) => {
      const value = typeof header === 'function' ? header() : header;
      const res = await api({
        method: 'GET',
        url: '/api/auth/user',
        ...(value === undefined ? {} : { headers: { authorization: value } }),
      });
      expectMessage(res, 401, M.unauthorized);
    });

    it('a revoked token: 401', async () => {
      const other = await steps.login(email, PASSWORD);
      expectMessage(await steps.logout(other), 200, M.loggedOut);
      expectMessage(await steps.user(other), 401, M.unauthorized);
    });
  });

  it('a malformed percent-encoding in the path is a 400 with a message', async () => {
    const res = await api({ url: '/api/auth/reset-password/%E0%A4%A', body: {} });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: M.badRequestUrl });
  });
});

describe('bad input over real HTTP', async () => {
  const server = await build();
  const base = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const api = httpClient(base);

  it('a 10 KB Authorization header: 401', async () => {
    const res = await api({
      method: 'GET',
      url: '/api/auth/user',
      headers: { authorization: `Bearer ${'b'.repeat(10 * 1024)}` },
    });
    expectMessage(res, 401, M.unauthorized);
  });

  it('invalid JSON: 400; text/plain: 415; over 64 KB: 413', async () => {
    const url = '/api/auth/login';
    expectClientError(await api({ url, body: '{', headers: JSON_TYPE }), 400, M.badJson);
    expectClientError(
      await api({ url, body: 'hi', headers: { 'content-type': 'text/plain' } }),
      415,
      M.unsupportedMedia,
    );
    expectClientError(await api({ url, body: HUGE, headers: JSON_TYPE }), 413, M.bodyTooLarge);
  });

  it('a chunked body that grows past 64 KB without a Content-Length: 413', async () => {
    const { status, text } = await new Promise<{ status: number; text: string }>(
      (resolve, reject) => {
        const req = httpRequest(`${base}/api/auth/forgot-password`, {
          method: 'POST',
          headers: { ...JSON_TYPE, 'transfer-encoding': 'chunked' },
        });
        req.on('response', (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: body }));
        });
        req.on('error', reject);
        req.write('{"email":"');
        for (let i = 0; i < 70; i++) req.write('x'.repeat(1024));
        req.end('"}');
      },
    );
    expect(status).toBe(413);
    expect(JSON.parse(text)).toEqual({ message: M.bodyTooLarge });
  });
});
