import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { OfflineDataMark } from '@/app/components/signed-in/OfflineDataMark.js';
import { formatShortTime } from '@/lib/format.js';
import { testQueryClient } from '../support/render.js';

const LOADED_LIST = new Date(2026, 0, 5, 9, 41).getTime();
const LOADED_USER = new Date(2026, 0, 5, 8, 17).getTime();

/** A screen that shows one data set (the mark counts only data sets on screen). */
function Shows({ name }: { name: string }) {
  useQuery({ queryKey: [name], queryFn: () => new Promise<never>(() => undefined) });
  return null;
}

function setOnline(online: boolean) {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  act(() => {
    window.dispatchEvent(new Event(online ? 'online' : 'offline'));
  });
}

function setup(shown: string[]) {
  const queryClient = testQueryClient();
  queryClient.setQueryData(['list'], ['a product'], { updatedAt: LOADED_LIST });
  queryClient.setQueryData(['user'], { id: 'u1' }, { updatedAt: LOADED_USER });
  queryClient.setQueryData(['hidden'], 'not on screen', { updatedAt: 1 });
  render(
    <QueryClientProvider client={queryClient}>
      {shown.map((name) => (
        <Shows key={name} name={name} />
      ))}
      <OfflineDataMark />
    </QueryClientProvider>,
  );
}

afterEach(() => setOnline(true));

describe('OfflineDataMark', () => {
  it('says nothing while online', () => {
    setup(['list']);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('offline, gives the time the oldest data set on screen was loaded', () => {
    setup(['list', 'user']);
    setOnline(false);
    expect(screen.getByRole('status')).toHaveTextContent(
      `Offline: showing what was loaded at ${formatShortTime(LOADED_USER)}`,
    );
  });

  it('counts only the data sets a screen shows, and goes when the connection is back', () => {
    setup(['list']);
    setOnline(false);
    expect(screen.getByRole('status')).toHaveTextContent(formatShortTime(LOADED_LIST));
    setOnline(true);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says nothing offline when no data is shown', () => {
    setup(['nothing-loaded']);
    setOnline(false);
    expect(screen.queryByRole('status')).toBeNull();
  });
});
