import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ProductCard } from '@/features/products/components/ProductCard.js';
import { renderRoute } from '../../support/render.js';
import { product } from './fixtures.js';

const renderCard = (overrides: Parameters<typeof product>[0]) => {
  renderRoute(
    <ul>
      <ProductCard product={product(overrides)} />
    </ul>,
  );
  return within(screen.getByRole('listitem'));
};

describe('ProductCard', () => {
  it('shows the name, the description, the price in dollars and the thumbnail', () => {
    const card = renderCard({ name: 'Webcam HD', price: 1299.5 });
    expect(card.getByRole('heading', { name: 'Webcam HD' })).toBeInTheDocument();
    expect(card.getByText('A lamp for the desk.')).toHaveClass('line-clamp-2');
    expect(card.getByText('$1,299.50')).toBeInTheDocument();
    const image = card.getByAltText('Webcam HD');
    expect(image).toHaveAttribute('src', 'http://localhost/images/p1-thumb.webp');
    expect(image).toHaveAttribute('loading', 'lazy');
    expect(card.getByRole('link', { name: 'Webcam HD' })).toHaveAttribute(
      'href',
      '/details/product/p1',
    );
    expect(card.getByRole('link', { name: 'Edit Webcam HD' })).toHaveAttribute(
      'href',
      '/edit/product/p1',
    );
    expect(card.getByRole('button', { name: 'Delete Webcam HD' })).toBeInTheDocument();
  });

  it('shows more than 10 units in green, with the In stock tag', () => {
    const card = renderCard({ stock: 11 });
    const count = card.getByText('11 units');
    expect(count).toHaveAttribute('data-tone', 'green');
    expect(count.className).toMatch(/text-green-/);
    expect(card.getByText('In stock')).toBeInTheDocument();
    expect(card.queryByText('Out of Stock')).not.toBeInTheDocument();
  });

  it('shows 10 units or fewer in yellow', () => {
    const card = renderCard({ stock: 10 });
    const count = card.getByText('10 units');
    expect(count).toHaveAttribute('data-tone', 'yellow');
    expect(count.className).toMatch(/text-yellow-/);
    expect(card.getByText('In stock')).toBeInTheDocument();
  });

  it("shows the 'Out of Stock' badge at 0, and no In stock tag", () => {
    const card = renderCard({ stock: 0 });
    expect(card.getByText('Out of Stock')).toBeInTheDocument();
    expect(card.queryByText('In stock')).not.toBeInTheDocument();
    expect(card.getByText('0 units')).toHaveAttribute('data-tone', 'yellow');
  });
});
