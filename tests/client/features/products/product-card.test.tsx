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
    // Clamped to two lines: e2e/product-screens.spec.ts measures it in a browser.
    expect(card.getByText('A lamp for the desk.')).toBeVisible();
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

  // jsdom applies no stylesheet: the classes say whether a width hides it; the browser suite
  // (e2e/product-screens.spec.ts) sees it on a phone.
  it('shows the description at every width, clamped to two lines', () => {
    const card = renderCard({});
    const description = card.getByText('A lamp for the desk.');
    expect(description).toHaveClass('line-clamp-2');
    const hiding: string[] = [];
    for (let node: Element | null = description; node && node.tagName !== 'LI';) {
      hiding.push(...[...node.classList].filter((name) => /(^|:)hidden$/.test(name)));
      node = node.parentElement;
    }
    expect(hiding, 'classes that hide it at some width').toEqual([]);
  });

  // The count's colour (green above 10 units, yellow at 10 or fewer) is the browser suite's to
  // see: jsdom applies no stylesheet (e2e/products.spec.ts, expectTextColour).
  it('shows more than 10 units with the In stock tag', () => {
    const card = renderCard({ stock: 11 });
    expect(card.getByText('11 units')).toBeVisible();
    expect(card.getByText('In stock')).toBeInTheDocument();
    expect(card.queryByText('Out of Stock')).not.toBeInTheDocument();
  });

  it("shows stock at or below the catalogue's reorder point (10) as In stock, to reorder", () => {
    const card = renderCard({ stock: 10 });
    expect(card.getByText('10 units')).toBeVisible();
    expect(card.getByText('In stock')).toBeInTheDocument();
    expect(card.getByText('· to reorder')).toBeInTheDocument();
  });

  // The 'To reorder' filter and the badge agree: one notion of low, the reorder point that applies.
  it("follows the product's own reorder point, above or below 10", () => {
    const onList = renderCard({ stock: 20, reorderPoint: 25 });
    expect(onList.getByText('· to reorder')).toBeInTheDocument();
    expect(onList.getByText('20 units').closest('[data-stock-state]')).toHaveAttribute(
      'data-stock-state',
      'low',
    );
  });

  it('shows a product above its own lower reorder point as plainly in stock', () => {
    const card = renderCard({ stock: 8, reorderPoint: 5 });
    expect(card.getByText('In stock')).toBeInTheDocument();
    expect(card.queryByText('· to reorder')).not.toBeInTheDocument();
  });

  it("shows the 'Out of Stock' badge at 0, and no In stock tag", () => {
    const card = renderCard({ stock: 0 });
    expect(card.getByText('Out of Stock')).toBeInTheDocument();
    expect(card.queryByText('In stock')).not.toBeInTheDocument();
    expect(card.getByText('0 units')).toBeVisible();
  });
});
