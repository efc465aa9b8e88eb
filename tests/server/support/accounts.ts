import { randomBytes } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { expect } from 'vitest';
import type { FieldError } from '../../../src/shared/field-errors.js';
import { M, V } from '../../../src/shared/messages.js';
import type { App } from '../../../src/server/app.js';
import type { TestServer } from './build.js';
import { LocalInbox, type Inbox } from './inbox.js';

/** Passwords that pass every rule: 8+ characters with a letter and a digit. */
export const PASSWORD = 'first-Password-1';
export const NEW_PASSWORD = 'second-Password-2';

const run = randomBytes(3).toString('hex');
let sequence = 0;
/** A fresh address per call, so the tests of a file never share an account by accident. */
export const newEmail = (label = 'user') => `${label}-${run}-${++sequence}@example.com`;

/** A well-formed code that is certainly not `code`. */
export const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/** Everything an answer of the accounts API may carry. */
interface ApiBody {
  message?: string;
  errors?: FieldError[];
  token?: string;
  user?: Record<string, unknown>;
}

export interface ApiRequest {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'OPTIONS';
  url: string;
  /** An object goes as JSON; a string goes as it is (set its content-type in `headers`). */
  body?: unknown;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  headers?: Record<string, string>;
  /** The client's IP (inject only). */
  remoteAddress?: string;
}

export interface ApiResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  text: string;
  /** The parsed JSON body; `{}` when the body is not JSON. */
  body: ApiBody;
}

/** One request to the API, through inject or over real HTTP: the tests do not care which. */
export type Client = (request: ApiRequest) => Promise<ApiResponse>;

function toResponse(
  status: number,
  headers: Record<string, string | string[] | number | undefined>,
  text: string,
): ApiResponse {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = ([] as unknown[]).concat(value).join(', ');
  }
  let body: ApiBody = {};
  try {
    body = JSON.parse(text) as ApiBody;
  } catch {
    // not JSON: tests that care look at `text`
  }
  return { status, headers: flat, text, body };
}

const authorization = (token: string | undefined): Record<string, string> =>
  token === undefined ? {} : { authorization: `Bearer ${token}` };

export function injectClient(app: App): Client {
  return async ({ method = 'POST', url, body, token, headers, remoteAddress }) => {
    const options: InjectOptions = {
      method,
      url,
      headers: { ...authorization(token), ...headers },
    };
    if (body !== undefined) options.payload = body as string | object;
    if (remoteAddress) options.remoteAddress = remoteAddress;
    const res = await app.inject(options);
    return toResponse(res.statusCode, res.headers, res.body);
  };
}

/** Real HTTP to a listening server, e.g. `httpClient(await app.listen({port: 0, host}))`. */
export function httpClient(baseUrl: string): Client {
  return async ({ method = 'POST', url, body, token, headers }) => {
    const json = body !== undefined && typeof body !== 'string';
    const res = await fetch(baseUrl + url, {
      method,
      headers: {
        ...(json ? { 'content-type': 'application/json' } : {}),
        ...authorization(token),
        ...headers,
      },
      ...(body === undefined ? {} : { body: json ? JSON.stringify(body) : (body as string) }),
    });
    return toResponse(res.status, Object.fromEntries(res.headers), await res.text());
  };
}

/** Status and `message` together, so a failure shows both. */
export function expectMessage(res: ApiResponse, status: number, message: string) {
  expect({ status: res.status, message: res.body.message }).toEqual({ status, message });
}

/** A 400 whose `message` is the first failing field's, which `errors` also lists first. */
export function expectInvalid(res: ApiResponse, path: string, message: string) {
  expect({ status: res.status, message: res.body.message, first: res.body.errors?.[0] }).toEqual({
    status: 400,
    message,
    first: { path, message },
  });
}

/**
 * Bodies that confirm-account and validate-password-token both refuse, as
 * [what is wrong, body, failing field, message].
 */
export const badCodeBodies: [string, Record<string, unknown>, string, string][] = [
  ['token missing', {}, 'token', V.codeInvalid],
  ['token empty', { token: '' }, 'token', V.codeInvalid],
  ['token of 5 digits', { token: '12345' }, 'token', V.codeInvalid],
  ['token of 7 digits', { token: '1234567' }, 'token', V.codeInvalid],
  ['token with a letter', { token: '12a456' }, 'token', V.codeInvalid],
  ['token with a space', { token: '123 45' }, 'token', V.codeInvalid],
  ['token as a number', { token: 123456 }, 'token', V.codeInvalid],
  ['email not an address', { token: '123456', email: 'x@' }, 'email', V.emailInvalid],
];

/** What an enumeration-safe endpoint must keep the same whoever the e-mail belongs to. */
export const fingerprint = (res: ApiResponse) => ({
  status: res.status,
  contentType: res.headers['content-type'],
  text: res.text,
});

export interface Account {
  name: string;
  email: string;
  password: string;
}

export interface SignedIn extends Account {
  token: string;
  /** `Authorization: Bearer <token>`, for inject(). */
  headers: { authorization: string };
}

/** The account steps every test repeats, over any client, reading mail from any inbox. */
export function accountSteps(api: Client, inbox: Inbox) {
  const steps = {
    api,
    inbox,

    async signUp(overrides: Partial<Account> = {}): Promise<Account> {
      const account = { name: 'Ada Lovelace', email: newEmail(), password: PASSWORD, ...overrides };
      const res = await api({
        url: '/api/auth/signup',
        body: { ...account, confirmPassword: account.password },
      });
      expectMessage(res, 201, M.signupDone);
      return account;
    },

    /** Delivers what is due and returns the code of the newest mail to this address. */
    async codeFor(email: string): Promise<string> {
      await inbox.fetch();
      return inbox.codeFor(email);
    },

    confirmWith: (token: string, email?: string) =>
      api({ url: '/api/auth/confirm-account', body: { token, email } }),

    async confirm(email: string) {
      const res = await steps.confirmWith(await steps.codeFor(email), email);
      expectMessage(res, 200, M.accountConfirmed);
    },

    loginWith: (email: string, password: string) =>
      api({ url: '/api/auth/login', body: { email, password } }),

    async login(email: string, password: string): Promise<string> {
      const res = await steps.loginWith(email, password);
      expectMessage(res, 200, M.loginDone);
      expect(res.body.token).toEqual(expect.any(String));
      return res.body.token!;
    },

    /** Signed up, confirmed and logged in. */
    async signedIn(overrides: Partial<Account> = {}): Promise<SignedIn> {
      const account = await steps.signUp(overrides);
      await steps.confirm(account.email);
      const token = await steps.login(account.email, account.password);
      return { ...account, token, headers: { authorization: `Bearer ${token}` } };
    },

    resend: (email: string) => api({ url: '/api/auth/resend-confirmation', body: { email } }),
    forgot: (email: string) => api({ url: '/api/auth/forgot-password', body: { email } }),

    validate: (token: string, email?: string) =>
      api({ url: '/api/auth/validate-password-token', body: { token, email } }),

    reset: (token: string, password: string, email?: string) =>
      api({
        url: `/api/auth/reset-password/${token}`,
        body: { password, confirmPassword: password, email },
      }),

    user: (token: string) => api({ method: 'GET', url: '/api/auth/user', token }),
    logout: (token: string) => api({ url: '/api/auth/logout', token }),

    updateProfile: (token: string, profile: { name: string; email: string }) =>
      api({ method: 'PATCH', url: '/api/auth/profile', token, body: profile }),

    confirmEmail: (token: string, code: string) =>
      api({ url: '/api/auth/profile/confirm-email', token, body: { token: code } }),

    changePassword: (token: string, currentPassword: string, newPassword: string) =>
      api({
        url: '/api/auth/profile/change-password',
        token,
        body: { currentPassword, newPassword, confirmNewPassword: newPassword },
      }),
  };
  return steps;
}

export type AccountSteps = ReturnType<typeof accountSteps>;

/** The usual set-up: inject, and mail read from DATA_DIR/mail. */
export const accounts = (server: TestServer, inbox: Inbox = new LocalInbox(server)) =>
  accountSteps(injectClient(server.app), inbox);

/** A confirmed, signed-in user over inject: the set-up of every test that needs one. */
export const signIn = (server: TestServer, name?: string) =>
  accounts(server).signedIn(name === undefined ? {} : { name });

/** A user row as stored, for checks the API does not show. */
export const userRow = (server: TestServer, email: string) =>
  server.database.db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', email.toLowerCase())
    .executeTakeFirst();
