import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi, type MockInstance } from 'vitest';
import { clearRequestLog, server } from './support/server.js';

// findBy… and waitFor give up after 5 s rather than 1 s: two files run at once on two cores, and
// a render beside another can take longer than a second. A check that passes passes as soon.
configure({ asyncUtilTimeout: 5_000 });

// Requests leave the app's real HTTP client and are answered at the network (support/server.ts).
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

/**
 * A test fails when anything wrote to console.error: React's warnings, an unhandled request, an
 * error the app logged. Whatever it uncovers is fixed, not silenced.
 */
let consoleError: MockInstance<typeof console.error>;

beforeEach(() => {
  localStorage.clear();
  consoleError = vi.spyOn(console, 'error');
});

afterEach(() => {
  // The toast area shows two at a time and queues the rest: a test's queue must not reach the next.
  toast.clearWaitingQueue();
  toast.dismiss();
  cleanup();
  server.resetHandlers();
  clearRequestLog();
  const calls = consoleError.mock.calls;
  consoleError.mockRestore();
  vi.clearAllMocks();
  expect(calls, 'console.error was called').toEqual([]);
});
