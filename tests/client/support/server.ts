import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

/**
 * The API of every component test, at the network (MSW): the app's own HTTP client runs, with its
 * bearer and 401 interceptors, its response schemas and the errors axios really throws. A test
 * answers what its screen asks with `server.use(http.get('/api/…', …))`; a request that no
 * handler answers fails the test (setup.ts). Handlers added by a test are dropped after it.
 */
/** The catalogue's default location, the only one a test has unless it adds more. */
export const MAIN_LOCATION = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Main',
  parentId: null,
  code: 'L-MAIN01',
  path: 'Main',
  isDefault: true,
  units: 0,
};

/** A bin under a shelf: the second place of the tests that move stock. */
export const BIN_LOCATION = {
  ...MAIN_LOCATION,
  id: '00000000-0000-4000-8000-000000000004',
  name: 'Bin 4',
  code: 'L-BIN004',
  path: 'Shelf / Bin 4',
  isDefault: false,
};

export const server = setupServer(
  // The browser suite's server, which has SMTP: no local mailbox (features/auth DevMailboxLink).
  http.head('/api/dev/mails', () => new HttpResponse(null, { status: 404 })),
  // The product page reads the catalogue's locations (where to adjust, where to move): one, the
  // default, unless a test says otherwise.
  http.get('/api/locations', () => HttpResponse.json({ locations: [MAIN_LOCATION] })),
  http.get('/api/catalogues/:catalogueId/locations', () =>
    HttpResponse.json({ locations: [MAIN_LOCATION] }),
  ),
  // Receive on /scan offers the open purchase orders: none unless a test says otherwise.
  http.get('/api/purchase-orders', () => HttpResponse.json({ purchaseOrders: [] })),
  http.get('/api/catalogues/:catalogueId/purchase-orders', () =>
    HttpResponse.json({ purchaseOrders: [] }),
  ),
);

/** One request the app sent, read as the server reads it. */
export interface SentRequest {
  method: string;
  /** Without the API base: '/auth/login', '/products/p1'. */
  path: string;
  query: Record<string, string>;
  /** JSON parsed; a multipart form as its fields, a file as `{ file: <its type> }`. */
  body: unknown;
  authorization: string | null;
}

let log: Promise<SentRequest>[] = [];

async function bodyOf(request: Request): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (type.startsWith('multipart/form-data')) {
    const fields: Record<string, unknown> = {};
    for (const [name, value] of (await request.formData()).entries()) {
      const field = typeof value === 'string' ? value : { file: value.type };
      // A repeated field (tags) becomes the list of its values.
      const earlier = fields[name];
      fields[name] =
        earlier === undefined ? field : [...(Array.isArray(earlier) ? earlier : [earlier]), field];
    }
    return fields;
  }
  const text = await request.text();
  return text === '' ? undefined : JSON.parse(text);
}

server.events.on('request:start', ({ request }) => {
  const url = new URL(request.url);
  // Left out: the one question of the login and code screens whether there is a local mailbox
  // (asked once per page load, so once per test file: the tests' requests are their screens').
  if (!url.pathname.startsWith('/api/') || request.method === 'HEAD') return;
  const copy = request.clone();
  log.push(
    bodyOf(copy).then((body) => ({
      method: request.method,
      path: url.pathname.slice('/api'.length),
      query: Object.fromEntries(url.searchParams),
      body,
      authorization: request.headers.get('authorization'),
    })),
  );
});

/** Forgets the requests of the test before (setup.ts, after each test). */
export const clearRequestLog = () => {
  log = [];
};

/** Every request the app sent to the API in this test, in order. */
export const requests = () => Promise.all(log);

/** The requests the app sent in this test, as [method, path, body]. */
export const sent = async () =>
  (await requests()).map(({ method, path, body }) => [method, path, body]);

/** A promise the test settles when it wants: to look at a screen while a request is pending. */
export function deferred<T = Response>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/** An error answer of the API: `{message, errors?}` with its status. */
export const apiError = (status: number, body: { message: string; errors?: unknown[] }) =>
  HttpResponse.json(body, { status });
