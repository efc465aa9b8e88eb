import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TableHead } from '@/components/controls/Table.js';

function headers(columns: Parameters<typeof TableHead>[0]['columns']) {
  render(
    <table>
      <TableHead columns={columns} />
    </table>,
  );
  return screen.getAllByRole('columnheader');
}

describe('TableHead', () => {
  it('names each column, a numbers’ column aligned right', () => {
    const [name, cost] = headers([{ label: 'Supplier' }, { label: 'Cost', numeric: true }]);
    expect(name).toHaveAccessibleName('Supplier');
    expect(name).not.toHaveClass('text-right');
    expect(cost).toHaveClass('text-right');
  });

  it('names a column whose cells say it all for assistive technology alone', () => {
    const [, preferred] = headers([{ label: 'Supplier' }, { label: 'Preferred', hideLabel: true }]);
    expect(preferred).toHaveAccessibleName('Preferred');
    expect(within(preferred!).getByText('Preferred')).toHaveClass('sr-only');
  });
});
