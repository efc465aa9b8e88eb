import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

// No test talks to a server: requests go to the handler of support/api.ts.
vi.mock('@/lib/api-client.js', async () => {
  const { fakeApiRequest } = await import('./support/api.js');
  return { apiRequest: fakeApiRequest, loadApiClient: () => Promise.resolve() };
});

beforeEach(() => {
  localStorage.clear();
});

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});
