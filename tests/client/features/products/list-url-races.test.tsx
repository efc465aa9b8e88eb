import { act, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { ProductsToolbar } from '@/features/products/components/ProductsToolbar.js';
import { useListUrl } from '@/features/products/components/use-list-url.js';
import { renderRoute } from '../../support/render.js';
import { server } from '../../support/server.js';
import { product } from './fixtures.js';

/** Two changes of the list's state before the screen draws again, as a slow phone makes them. */
function TwoChangesAtOnce() {
  const { onSearch, onSort } = useListUrl();
  const { search } = useLocation();
  return (
    <>
      <button
        onClick={() => {
          onSort('price-asc');
          onSearch('lamp');
        }}
      >
        Both
      </button>
      <output data-testid="url">{search}</output>
    </>
  );
}

describe("the list's URL", () => {
  it('keeps both of two changes made before the screen drew again', async () => {
    const { user } = renderRoute(<TwoChangesAtOnce />, { url: '/?stock=low' });
    await user.click(screen.getByRole('button', { name: 'Both' }));
    const url = new URLSearchParams(screen.getByTestId('url').textContent ?? '');
    expect(Object.fromEntries(url)).toEqual({ stock: 'low', sort: 'price-asc', q: 'lamp' });
  });
});

/** The toolbar, with a URL search the test sets as the router would, late. */
function ToolbarWithLateUrl({ onSearch }: { onSearch: (q: string) => void }) {
  const [q, setQ] = useState('');
  return (
    <>
      <ProductsToolbar q={q} sort="newest" onSearch={onSearch} onSort={() => undefined} />
      <button onClick={() => setQ('k')}>URL k</button>
      <button onClick={() => setQ('chair')}>URL chair</button>
    </>
  );
}

describe('the search box', () => {
  it('keeps what was typed after a search when that search reaches the URL late', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const onSearch = vi.fn();
      const { user } = renderRoute(<ToolbarWithLateUrl onSearch={onSearch} />, {
        userOptions: { advanceTimers: (ms) => vi.advanceTimersByTime(ms) },
      });
      const box = screen.getByLabelText('Search');
      await user.type(box, 'k');
      act(() => vi.advanceTimersByTime(400));
      expect(onSearch).toHaveBeenLastCalledWith('k');
      await user.type(box, 'ey');
      // The URL now says what was asked for before 'ey' was typed.
      await user.click(screen.getByRole('button', { name: 'URL k' }));
      expect(box).toHaveValue('key');
      // A link that changes the search still shows its own.
      await user.click(screen.getByRole('button', { name: 'URL chair' }));
      expect(box).toHaveValue('chair');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a code a keyboard scanner types into the search', () => {
  it('is not searched for as text while it is looked up', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let answer: () => void = () => undefined;
      const answered = new Promise<void>((resolve) => (answer = resolve));
      server.use(
        http.get('/api/products/lookup', async () => {
          await answered;
          return HttpResponse.json({ product: product({ id: 'p7', barcode: '012345678905' }) });
        }),
      );
      const onSearch = vi.fn();
      const { user } = renderRoute(<ToolbarWithLateUrl onSearch={onSearch} />, {
        userOptions: { advanceTimers: (ms) => vi.advanceTimersByTime(ms) },
      });
      await user.type(screen.getByLabelText('Search'), '012345678905{Enter}');
      // The lookup is slow; the search box's own pause passes meanwhile.
      await act(() => vi.advanceTimersByTimeAsync(1000));
      expect(onSearch).not.toHaveBeenCalled();

      answer();
      expect(await screen.findByTestId('location')).toHaveTextContent('/details/product/p7');
      await act(() => vi.advanceTimersByTimeAsync(1000));
      expect(onSearch).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });
});
