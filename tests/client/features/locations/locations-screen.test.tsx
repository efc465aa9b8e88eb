import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Location } from '@shared/schemas/locations/locations.js';
import { LocationScreen } from '@/features/locations/components/LocationScreen.js';
import { LocationsScreen } from '@/features/locations/components/LocationsScreen.js';
import { queryKeys } from '@/lib/query/query-client.js';
import { renderRoute, testQueryClient } from '../../support/render.js';
import { server } from '../../support/server.js';
import { answerCatalogues, USER } from '../catalogues/fixtures.js';

const at = (id: string, name: string, parentId: string | null, path: string, units = 0) =>
  ({
    id,
    name,
    parentId,
    path,
    code: `L-${id.toUpperCase()}`,
    isDefault: false,
    units,
  }) as Location;

const TREE: Location[] = [
  { ...at('main', 'Main', null, 'Main', 4), isDefault: true },
  at('wh', 'Warehouse', null, 'Warehouse', 1),
  at('a3', 'Aisle 3', 'wh', 'Warehouse / Aisle 3', 2),
  at('b12', 'Bin 12', 'a3', 'Warehouse / Aisle 3 / Bin 12', 5),
];

function show(element: React.ReactElement, url: string, path: string) {
  const queryClient = testQueryClient();
  queryClient.setQueryData(queryKeys.user, USER);
  return renderRoute(element, { path, url, queryClient });
}

describe('the locations screen', () => {
  it('shows the tree with the units held in and under each location', async () => {
    server.use(http.get('/api/locations', () => HttpResponse.json({ locations: TREE })));
    show(<LocationsScreen />, '/locations', '/locations');
    await screen.findByRole('link', { name: 'Bin 12' });
    const list = screen.getByRole('list', { name: 'Locations' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'MainDefaultL-MAIN4 units',
      'WarehouseL-WH8 units',
      'Aisle 3L-A37 units',
      'Bin 12L-B125 units',
    ]);
    expect(within(items[3]!).getByRole('link', { name: 'Bin 12' })).toHaveAttribute(
      'href',
      '/locations/b12',
    );
  });

  it('adds a location inside another, as the owner of the personal catalogue', async () => {
    let sent: unknown;
    server.use(
      http.get('/api/locations', () => HttpResponse.json({ locations: TREE })),
      http.post('/api/locations', async ({ request }) => {
        sent = await request.json();
        const location = at('new', 'Shelf B', 'a3', 'Warehouse / Aisle 3 / Shelf B');
        return HttpResponse.json({ message: 'Location created', location }, { status: 201 });
      }),
    );
    show(<LocationsScreen />, '/locations', '/locations');
    const user = userEvent.setup();
    await screen.findByRole('link', { name: 'Bin 12' });
    await user.type(screen.getByLabelText('Name'), 'Shelf B');
    await user.selectOptions(screen.getByLabelText('Inside'), 'Warehouse / Aisle 3');
    await user.click(screen.getByRole('button', { name: 'Add location' }));
    await waitFor(() => expect(sent).toEqual({ name: 'Shelf B', parentId: 'a3' }));
  });

  it('offers a viewer of a shared catalogue no way to change the tree', async () => {
    answerCatalogues('viewer');
    server.use(
      http.get('/api/catalogues/c1/locations', () => HttpResponse.json({ locations: TREE })),
    );
    show(<LocationsScreen />, '/catalogues/c1/locations', '/catalogues/:catalogueId/locations');
    await screen.findByRole('link', { name: 'Bin 12' });
    expect(screen.queryByRole('heading', { name: 'Add a location' })).not.toBeInTheDocument();
  });
});

describe("a location's page", () => {
  it('lists its sub-locations, each linked, with the units held in and under it', async () => {
    server.use(http.get('/api/locations', () => HttpResponse.json({ locations: TREE })));
    show(<LocationScreen />, '/locations/wh', '/locations/:locationId');
    const inside = within(await screen.findByRole('list', { name: 'Sub-locations' }));
    expect(inside.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Aisle 37 units',
    ]);
    expect(inside.getByRole('link', { name: 'Aisle 3' })).toHaveAttribute('href', '/locations/a3');
  });

  it('moves it anywhere but under itself or its sub-locations', async () => {
    server.use(http.get('/api/locations', () => HttpResponse.json({ locations: TREE })));
    show(<LocationScreen />, '/locations/wh', '/locations/:locationId');
    await screen.findByRole('heading', { name: 'Warehouse', level: 1 });
    expect(screen.getByText(/8 units held here and below/)).toBeInTheDocument();
    const places = within(screen.getByLabelText('Inside'))
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(places).toEqual(['Nothing (a top-level location)', 'Main']);
  });
});
