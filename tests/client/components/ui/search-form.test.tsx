import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SearchForm } from '@/components/ui/SearchForm.js';

describe('SearchForm', () => {
  it('is a search landmark named by its label, and a submit searches in place', async () => {
    const onSearch = vi.fn();
    const user = userEvent.setup();
    render(
      <SearchForm label="Products" onSearch={onSearch}>
        <input aria-label="Search" />
        <button type="submit">Search</button>
      </SearchForm>,
    );
    const form = screen.getByRole('search', { name: 'Products' });
    let loaded = true;
    // A submit that reaches the document would load a page: it must stop at the form.
    form.ownerDocument.addEventListener('submit', (event) => {
      loaded = !event.defaultPrevented;
    });
    await user.type(screen.getByLabelText('Search'), 'tea{Enter}');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(onSearch).toHaveBeenCalledTimes(2);
    expect(loaded).toBe(false);
  });
});
