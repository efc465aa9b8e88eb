import { act, render, screen } from '@testing-library/react';
import { Suspense, type ComponentType } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { lazyScreen } from '@/app/components/lazy-screen.js';
import { LaterPart } from '@/app/components/LaterPart.js';

/** What a dynamic import() rejects with in Chromium when the chunk cannot be fetched. */
const notFetched = () =>
  new TypeError('Failed to fetch dynamically imported module: /assets/Part-x1.js');

function Part() {
  return <p>The part</p>;
}

/** A screen: its own content, then a part whose code loads as `load` says. */
function renderScreen(load: () => Promise<{ Part: ComponentType }>) {
  const LazyPart = lazyScreen(load, 'Part');
  return render(
    <main>
      <h1>The screen</h1>
      <Suspense fallback={null}>
        <LaterPart>
          <LazyPart />
        </LaterPart>
      </Suspense>
    </main>,
  );
}

describe('LaterPart', () => {
  it('shows its part once the code is there', async () => {
    renderScreen(() => Promise.resolve({ Part }));
    expect(await screen.findByText('The part')).toBeInTheDocument();
  });

  it('leaves the part out when its code cannot be fetched, and shows it once back online', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let online = false;
    const load = vi.fn(() => (online ? Promise.resolve({ Part }) : Promise.reject(notFetched())));
    renderScreen(load);
    // Asked for twice (lib/lazy-import.ts), then left out: the screen stays.
    await act(async () => {
      await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(2));
      // The rejection reaches the part in a later task.
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(screen.getByRole('heading', { name: 'The screen' })).toBeInTheDocument();
    expect(screen.queryByText('The part')).toBeNull();
    // React reports every error a boundary catches; this one was expected.
    expect(logged.mock.calls.flat()).toContainEqual(
      expect.objectContaining({ message: notFetched().message }),
    );
    logged.mockClear();

    online = true;
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(await screen.findByText('The part')).toBeInTheDocument();
  });

  it('lets any other failure through to the screen', () => {
    function Broken(): never {
      throw new Error('a bug');
    }
    expect(() =>
      render(
        <LaterPart>
          <Broken />
        </LaterPart>,
      ),
    ).toThrow('a bug');
  });
});
