import type { HTTPMethods } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CATALOGUE_ROLES,
  can,
  roleCannot,
  type CatalogueAction,
  type CatalogueRole,
} from '../../../src/shared/catalogue-roles.js';
import { build } from '../support/build.js';
import {
  CATALOGUE_NOT_FOUND,
  changes,
  person,
  randomUuid,
  send,
  uniqueName,
  watchedTables,
  watchRows,
  freshEmail,
  roleOf,
  type Person,
  type Request,
} from './catalogue-world.js';
import { catalogueWith, Fixtures, freshTag } from './fixtures.js';

/**
 * Every route of a catalogue, asked by every role from every side: the caller's own personal
 * catalogue, a shared one where they have the role, one they do not belong to (shared or someone's
 * personal one), and one that does not exist. Each request is one that succeeds for a role
 * allowed to make it, so only the rule in catalogue-roles.ts can tell the answers apart: allowed,
 * 2xx; a member without the right, 403 naming the role and the action; anyone else, 404, as if
 * the catalogue did not exist. A refusal changes nothing at all.
 */

/** What a request aims at: the catalogue in its URL, and the fixtures its ids come from. */
interface Aim {
  caller: Person;
  catalogueId: string;
  fixtures: Fixtures;
}

interface RouteCase {
  /** The right the route needs; `member` where belonging to the catalogue is enough. */
  action: CatalogueAction | 'member';
  success: 200 | 201;
  /** Routes that use the catalogue up (delete, hand over): a new one for each allowed request. */
  usesUpCatalogue?: boolean;
  /** What the caller's own personal catalogue answers instead of `success`. */
  onPersonal?: Expected;
  /** The requests that must get the same answer (variants of one route). */
  requests: ((aim: Aim, base: string) => Promise<Request>)[];
}

/** An exact answer; `unspecified` where the rules say nothing (then: no 5xx, refusals change nothing). */
type Expected = { status: number; body?: object } | 'unspecified';

const CSV_HEADER = 'name,price,stock,description\r\n';
const csvRow = () => `${uniqueName('Imported')},1.25,3,From a file\r\n`;

/** The products API, by path under its base: the personal routes and every catalogue's mirror. */
const PRODUCT_CASES: Record<string, RouteCase> = {
  'GET ': {
    action: 'read',
    success: 200,
    requests: [async (_aim, base) => ({ method: 'GET', url: base })],
  },
  'POST ': {
    action: 'editProducts',
    success: 201,
    requests: [
      async (_aim, base) => ({
        method: 'POST',
        url: base,
        form: { name: uniqueName('Created'), price: '3.00', stock: '5', description: 'New' },
      }),
    ],
  },
  'GET /:id': {
    action: 'read',
    success: 200,
    requests: [
      async ({ fixtures }, base) => ({ method: 'GET', url: `${base}/${await fixtures.product()}` }),
    ],
  },
  'PUT /:id/suppliers': {
    action: 'managePurchasing',
    success: 200,
    requests: [
      async ({ fixtures }, base) => ({
        method: 'PUT',
        url: `${base}/${await fixtures.product()}/suppliers`,
        json: {
          suppliers: [
            { supplierId: await fixtures.supplier(), supplierSku: 'S-1', cost: 2, preferred: true },
          ],
        },
      }),
    ],
  },
  'PATCH /:id': {
    action: 'editProducts',
    success: 200,
    requests: [
      async ({ fixtures }, base) => ({
        method: 'PATCH',
        url: `${base}/${await fixtures.product()}`,
        form: { name: uniqueName('Renamed') },
      }),
    ],
  },
  'DELETE /:id': {
    action: 'editProducts',
    success: 200,
    requests: [
      async ({ fixtures }, base) => ({
        method: 'DELETE',
        url: `${base}/${await fixtures.victim()}`,
      }),
    ],
  },
  'POST /:id/stock': {
    action: 'adjustStock',
    success: 200,
    requests: [
      async ({ fixtures }, base) => ({
        method: 'POST',
        url: `${base}/${await fixtures.product()}/stock`,
        json: { delta: 1, note: 'Counted again' },
      }),
      async ({ fixtures }, base) => ({
        method: 'POST',
        url: `${base}/${await fixtures.product()}/stock`,
        json: { count: 50 },
      }),
    ],
  },
  'GET /:id/movements': {
    action: 'read',
    success: 200,
    requests: [
      async ({ fixtures }, base) => ({
        method: 'GET',
        url: `${base}/${await fixtures.product()}/movements`,
      }),
    ],
  },
  'GET /summary': {
    action: 'read',
    success: 200,
    requests: [async (_aim, base) => ({ method: 'GET', url: `${base}/summary` })],
  },
  'GET /lookup': {
    action: 'read',
    success: 200,
    requests: [
      async ({ fixtures }, base) => {
        await fixtures.product();
        return { method: 'GET', url: `${base}/lookup?code=${fixtures.sku}` };
      },
    ],
  },
  'GET /export.csv': {
    action: 'export',
    success: 200,
    requests: [async (_aim, base) => ({ method: 'GET', url: `${base}/export.csv` })],
  },
  'GET /stock-by-location.csv': {
    action: 'export',
    success: 200,
    requests: [async (_aim, base) => ({ method: 'GET', url: `${base}/stock-by-location.csv` })],
  },
  'POST /import': {
    action: 'editProducts',
    success: 200,
    requests: [
      async (_aim, base) => ({
        method: 'POST',
        url: `${base}/import`,
        csv: CSV_HEADER + csvRow(),
      }),
      // A dry run writes nothing, yet it shows what the file would do: editing, all the same.
      async (_aim, base) => ({
        method: 'POST',
        url: `${base}/import?dryRun=true`,
        csv: CSV_HEADER + csvRow(),
      }),
    ],
  },
  'POST /stock-by-location/import': {
    action: 'adjustStock',
    success: 200,
    requests: [
      // A count of the fixture product in the default location, then the same as a dry run.
      async ({ fixtures }, base) => ({
        method: 'POST',
        url: `${base}/stock-by-location/import`,
        csv: `id,location,quantity\r\n${await fixtures.product()},Main,7\r\n`,
      }),
      async ({ fixtures }, base) => ({
        method: 'POST',
        url: `${base}/stock-by-location/import?dryRun=true`,
        csv: `id,location,quantity\r\n${await fixtures.product()},Main,8\r\n`,
      }),
    ],
  },
  'POST /bulk-delete': {
    action: 'editProducts',
    success: 200,
    requests: [
      async ({ fixtures }, base) => ({
        method: 'POST',
        url: `${base}/bulk-delete`,
        json: { ids: [await fixtures.victim()] },
      }),
    ],
  },
  'GET /labels.pdf': {
    action: 'printLabels',
    success: 200,
    requests: [
      async ({ fixtures }, base) => ({
        method: 'GET',
        url: `${base}/labels.pdf?ids=${await fixtures.product()}`,
      }),
    ],
  },
  'POST /labels.pdf': {
    action: 'printLabels',
    success: 200,
    requests: [
      async ({ fixtures }, base) => ({
        method: 'POST',
        url: `${base}/labels.pdf`,
        json: { ids: [await fixtures.product()] },
      }),
    ],
  },
};

/**
 * A catalogue's locations, by path under its base: `/api/locations` for the personal one,
 * `/api/catalogues/:catalogueId/locations` for any.
 */
const LOCATION_CASES: Record<string, RouteCase> = {
  'GET ': {
    action: 'read',
    success: 200,
    requests: [async (_aim, base) => ({ method: 'GET', url: base })],
  },
  'POST ': {
    action: 'manageLocations',
    success: 201,
    requests: [
      async (_aim, base) => ({ method: 'POST', url: base, json: { name: uniqueName('Aisle') } }),
    ],
  },
  'GET /:locationId': {
    action: 'read',
    success: 200,
    requests: [
      async ({ fixtures }, base) => ({
        method: 'GET',
        url: `${base}/${await fixtures.locations.location()}`,
      }),
    ],
  },
  'PATCH /:locationId': {
    action: 'manageLocations',
    success: 200,
    requests: [
      async ({ fixtures }, base) => ({
        method: 'PATCH',
        url: `${base}/${await fixtures.locations.location()}`,
        json: { name: uniqueName('Shelf') },
      }),
    ],
  },
  'DELETE /:locationId': {
    action: 'manageLocations',
    success: 200,
    requests: [
      async ({ fixtures }, base) => ({
        method: 'DELETE',
        url: `${base}/${await fixtures.locations.empty()}`,
      }),
    ],
  },
  'GET /labels.pdf': {
    action: 'printLabels',
    success: 200,
    requests: [
      async ({ fixtures }, base) => ({
        method: 'GET',
        url: `${base}/labels.pdf?ids=${await fixtures.locations.location()}`,
      }),
    ],
  },
  'POST /labels.pdf': {
    action: 'printLabels',
    success: 200,
    requests: [
      async ({ fixtures }, base) => ({
        method: 'POST',
        url: `${base}/labels.pdf`,
        json: { ids: [await fixtures.locations.location()] },
      }),
    ],
  },
};

/**
 * A catalogue's suppliers, by path under its base: `/api/suppliers` for the personal one,
 * `/api/catalogues/:catalogueId/suppliers` for any.
 */
const SUPPLIER_CASES: Record<string, RouteCase> = {
  'GET ': {
    action: 'read',
    success: 200,
    requests: [async (_aim, base) => ({ method: 'GET', url: base })],
  },
  'POST ': {
    action: 'managePurchasing',
    success: 201,
    requests: [
      async (_aim, base) => ({ method: 'POST', url: base, json: { name: uniqueName('Maker') } }),
    ],
  },
  'GET /:supplierId': {
    action: 'read',
    success: 200,
    requests: [
      async ({ fixtures }, base) => ({
        method: 'GET',
        url: `${base}/${await fixtures.supplier()}`,
      }),
    ],
  },
  'PATCH /:supplierId': {
    action: 'managePurchasing',
    success: 200,
    requests: [
      async ({ fixtures }, base) => ({
        method: 'PATCH',
        url: `${base}/${await fixtures.supplier()}`,
        json: { notes: uniqueName('Note') },
      }),
    ],
  },
  'DELETE /:supplierId': {
    action: 'managePurchasing',
    success: 200,
    requests: [
      async ({ fixtures }, base) => ({
        method: 'DELETE',
        url: `${base}/${await fixtures.spareSupplier()}`,
      }),
    ],
  },
};

/**
 * A catalogue's purchase orders, by path under its base: `/api/purchase-orders` for the personal
 * one, `/api/catalogues/:catalogueId/purchase-orders` for any. The stock role receives.
 */
const PURCHASE_ORDER_CASES: Record<string, RouteCase> = {
  'GET ': {
    action: 'read',
    success: 200,
    requests: [async (_aim, base) => ({ method: 'GET', url: base })],
  },
  'POST ': {
    action: 'managePurchasing',
    success: 201,
    requests: [
      async ({ fixtures }, base) => ({
        method: 'POST',
        url: base,
        json: { supplierId: await fixtures.supplier() },
      }),
    ],
  },
  'POST /from-reorder': {
    action: 'managePurchasing',
    success: 201,
    requests: [async (_aim, base) => ({ method: 'POST', url: `${base}/from-reorder` })],
  },
  'GET /:poId': {
    action: 'read',
    success: 200,
    requests: [
      async ({ fixtures }, base) => ({
        method: 'GET',
        url: `${base}/${await fixtures.draftOrder()}`,
      }),
    ],
  },
  'GET /:poId.pdf': {
    action: 'read',
    success: 200,
    requests: [
      async ({ fixtures }, base) => ({
        method: 'GET',
        url: `${base}/${await fixtures.orderedOrder()}.pdf`,
      }),
    ],
  },
  'GET /:poId.csv': {
    action: 'read',
    success: 200,
    requests: [
      async ({ fixtures }, base) => ({
        method: 'GET',
        url: `${base}/${await fixtures.orderedOrder()}.csv`,
      }),
    ],
  },
  'PATCH /:poId': {
    action: 'managePurchasing',
    success: 200,
    requests: [
      async ({ fixtures }, base) => ({
        method: 'PATCH',
        url: `${base}/${await fixtures.draftOrder()}`,
        json: { notes: uniqueName('Note') },
      }),
    ],
  },
  'DELETE /:poId': {
    action: 'managePurchasing',
    success: 200,
    requests: [
      async ({ fixtures }, base) => ({
        method: 'DELETE',
        url: `${base}/${await fixtures.spareDraft()}`,
      }),
    ],
  },
  'POST /:poId/send': {
    action: 'managePurchasing',
    success: 200,
    requests: [
      async ({ fixtures }, base) => ({
        method: 'POST',
        url: `${base}/${await fixtures.sendableOrder()}/send`,
      }),
    ],
  },
  'POST /:poId/receipts': {
    action: 'receiveStock',
    success: 200,
    requests: [
      async ({ fixtures, catalogueId }, base) => ({
        method: 'POST',
        url: `${base}/${await fixtures.orderedOrder()}/receipts`,
        json: {
          locationId: catalogueId,
          lines: [{ productId: await fixtures.product(), quantity: 1 }],
        },
      }),
    ],
  },
};

const PERSONAL_NOT_DELETED = { message: 'Your personal catalogue cannot be deleted' };
const PERSONAL_NOT_HANDED = { message: 'Your personal catalogue cannot be handed over' };
const OWNER_ROLE_FIXED = { message: "The owner's role cannot be changed" };
const OWNER_STAYS = { message: 'The owner cannot leave or be removed; hand over ownership first' };

/** The catalogue's own routes, by path under `/api/catalogues/:catalogueId`. */
const CATALOGUE_CASES: Record<string, RouteCase> = {
  'GET ': {
    action: 'member',
    success: 200,
    requests: [async (_aim, base) => ({ method: 'GET', url: base })],
  },
  'PATCH ': {
    action: 'renameCatalogue',
    success: 200,
    requests: [
      async (_aim, base) => ({
        method: 'PATCH',
        url: base,
        json: { name: uniqueName('Catalogue') },
      }),
    ],
  },
  'DELETE ': {
    action: 'deleteCatalogue',
    success: 200,
    usesUpCatalogue: true,
    onPersonal: { status: 409, body: PERSONAL_NOT_DELETED },
    requests: [async (_aim, base) => ({ method: 'DELETE', url: base })],
  },
  'POST /transfer': {
    action: 'transferOwnership',
    success: 200,
    usesUpCatalogue: true,
    onPersonal: { status: 409, body: PERSONAL_NOT_HANDED },
    requests: [
      async ({ fixtures }, base) => ({
        method: 'POST',
        url: `${base}/transfer`,
        json: { userId: await fixtures.bystander() },
      }),
    ],
  },
  'GET /members': {
    action: 'member',
    success: 200,
    requests: [async (_aim, base) => ({ method: 'GET', url: `${base}/members` })],
  },
  'PATCH /members/:userId': {
    action: 'manageMembers',
    success: 200,
    onPersonal: { status: 409, body: OWNER_ROLE_FIXED },
    requests: [
      async ({ fixtures, caller }, base) => {
        const target = fixtures.personal ? caller.id : await fixtures.bystander();
        const current = await roleOf(server, fixtures.catalogueId, target);
        return {
          method: 'PATCH',
          url: `${base}/members/${target}`,
          json: { role: current === 'editor' ? 'stock' : 'editor' },
        };
      },
    ],
  },
  'DELETE /members/:userId': {
    action: 'manageMembers',
    success: 200,
    onPersonal: { status: 409, body: OWNER_STAYS },
    requests: [
      async ({ fixtures, caller }, base) => ({
        method: 'DELETE',
        url: `${base}/members/${fixtures.personal ? caller.id : await fixtures.bystander()}`,
      }),
    ],
  },
  'GET /invitations': {
    action: 'manageMembers',
    success: 200,
    requests: [async (_aim, base) => ({ method: 'GET', url: `${base}/invitations` })],
  },
  'POST /invitations': {
    action: 'manageMembers',
    success: 201,
    // Whether a personal catalogue can be shared is not decided: only no 5xx, no half-change.
    onPersonal: 'unspecified',
    requests: [
      async (_aim, base) => ({
        method: 'POST',
        url: `${base}/invitations`,
        json: { email: freshEmail('invited'), role: 'stock' },
      }),
    ],
  },
  'DELETE /invitations/:invitationId': {
    action: 'manageMembers',
    success: 200,
    onPersonal: 'unspecified',
    requests: [
      async ({ fixtures }, base) => ({
        method: 'DELETE',
        url: `${base}/invitations/${await fixtures.invitation()}`,
      }),
    ],
  },
  'GET /webhooks': {
    action: 'manageWebhooks',
    success: 200,
    requests: [async (_aim, base) => ({ method: 'GET', url: `${base}/webhooks` })],
  },
  'POST /webhooks': {
    action: 'manageWebhooks',
    success: 201,
    requests: [
      async (_aim, base) => ({
        method: 'POST',
        url: `${base}/webhooks`,
        json: { url: 'https://hooks.invalid/new', events: ['product.created'] },
      }),
    ],
  },
  ...Object.fromEntries(
    (
      [
        ['GET', ''],
        ['PATCH', ''],
        ['DELETE', ''],
        ['POST', '/test'],
        ['GET', '/deliveries'],
        ['POST', '/secret'],
      ] as const
    ).map(([method, tail]): [string, RouteCase] => [
      `${method} /webhooks/:webhookId${tail}`,
      {
        action: 'manageWebhooks',
        success: 200,
        requests: [
          async ({ fixtures }, base) => ({
            method,
            url: `${base}/webhooks/${await fixtures.webhook()}${tail}`,
            ...(method === 'PATCH' ? { json: { enabled: true } } : {}),
            ...(method === 'POST' ? { json: {} } : {}),
          }),
        ],
      },
    ]),
  ),
};

/**
 * The stock reports, by path under the catalogue's base: `/api/products` for the personal one,
 * `/api/catalogues/:catalogueId` for any (not under its `/products`).
 */
const REPORT_CASES: Record<string, RouteCase> = Object.fromEntries(
  ['stock-over-time', 'top-movers', 'dead-stock', 'to-reorder'].flatMap((name) => [
    [
      `GET /reports/${name}`,
      {
        action: 'read',
        success: 200,
        requests: [async (_aim, base) => ({ method: 'GET', url: `${base}/reports/${name}` })],
      },
    ],
    [
      `GET /reports/${name}.csv`,
      {
        action: 'export',
        success: 200,
        requests: [async (_aim, base) => ({ method: 'GET', url: `${base}/reports/${name}.csv` })],
      },
    ],
  ]),
);

/**
 * The activity log, at `/activity` of either scope: reading it, and undoing a stock movement (made
 * by the catalogue's owner, a new one once one was undone), which needs the right to adjust stock.
 */
const ACTIVITY_CASES: Record<string, RouteCase> = {
  'GET /activity': {
    action: 'read',
    success: 200,
    requests: [async (_aim, base) => ({ method: 'GET', url: `${base}/activity` })],
  },
  'POST /activity/:entryId/undo': {
    action: 'adjustStock',
    success: 200,
    requests: [
      async ({ fixtures }, base) => ({
        method: 'POST',
        url: `${base}/activity/${await fixtures.stockMoveEntry()}/undo`,
      }),
    ],
  },
};

/**
 * Moves of stock between locations, at `/stock` of either scope: one unit of the fixture product
 * from the catalogue's default location (its id is the catalogue's) to a shelf.
 */
const STOCK_CASES: Record<string, RouteCase> = {
  'POST /transfers': {
    action: 'adjustStock',
    success: 200,
    requests: [
      async ({ fixtures, catalogueId }, base) => ({
        method: 'POST',
        url: `${base}/transfers`,
        json: {
          productId: await fixtures.product(),
          from: catalogueId,
          to: await fixtures.locations.location(),
          quantity: 1,
        },
      }),
    ],
  },
};

/**
 * A catalogue's stock counts, at `/api/counts` for the personal one and
 * `/api/catalogues/:catalogueId/counts` for any: reads, lines counted by whoever may adjust stock,
 * the rest by editors and above. Reviews, postings and cancels each use up a count of their own.
 */
const COUNT_CASES: Record<string, RouteCase> = {
  'GET ': {
    action: 'read',
    success: 200,
    requests: [async (_aim, base) => ({ method: 'GET', url: base })],
  },
  'POST ': {
    action: 'manageCounts',
    success: 201,
    requests: [
      async (_aim, base) => ({
        method: 'POST',
        url: base,
        json: { scope: { kind: 'tag', tag: freshTag() }, blind: true },
      }),
    ],
  },
  'GET /:countId': {
    action: 'read',
    success: 200,
    requests: [
      async ({ fixtures }, base) => ({
        method: 'GET',
        url: `${base}/${await fixtures.counts.open()}`,
      }),
    ],
  },
  'GET /:countId.csv': {
    action: 'export',
    success: 200,
    requests: [
      async ({ fixtures }, base) => ({
        method: 'GET',
        url: `${base}/${await fixtures.counts.open()}.csv`,
      }),
    ],
  },
  'GET /:countId/sheet.pdf': {
    action: 'printLabels',
    success: 200,
    requests: [
      async ({ fixtures }, base) => ({
        method: 'GET',
        url: `${base}/${await fixtures.counts.open()}/sheet.pdf`,
      }),
    ],
  },
  'POST /:countId/lines': {
    action: 'countStock',
    success: 200,
    requests: [
      async ({ fixtures }, base) => ({
        method: 'POST',
        url: `${base}/${await fixtures.counts.open()}/lines`,
        json: {
          productId: await fixtures.product(),
          locationId: await fixtures.locations.location(),
          counted: 3,
        },
      }),
    ],
  },
  ...Object.fromEntries(
    ['review', 'post', 'cancel'].map((tail): [string, RouteCase] => [
      `POST /:countId/${tail}`,
      {
        action: 'manageCounts',
        success: 200,
        requests: [
          async ({ fixtures }, base) => ({
            method: 'POST',
            url: `${base}/${await fixtures.counts.fresh()}/${tail}`,
            ...(tail === 'post' ? { json: {} } : {}),
          }),
        ],
      },
    ]),
  ),
};

const split = (key: string) => {
  const [method, path] = key.split(' ') as [HTTPMethods, string];
  return { method, path };
};

/** Every route this file knows, by `METHOD /url` as the app registers it. */
const PERSONAL_ROUTES = Object.fromEntries([
  ...Object.entries({ ...PRODUCT_CASES, ...REPORT_CASES, ...ACTIVITY_CASES }).map(
    ([key, routeCase]) => {
      const { method, path } = split(key);
      return [`${method} /api/products${path}`, routeCase] as const;
    },
  ),
  ...Object.entries(LOCATION_CASES).map(([key, routeCase]) => {
    const { method, path } = split(key);
    return [`${method} /api/locations${path}`, routeCase] as const;
  }),
  ...Object.entries(STOCK_CASES).map(([key, routeCase]) => {
    const { method, path } = split(key);
    return [`${method} /api/stock${path}`, routeCase] as const;
  }),
  ...Object.entries(SUPPLIER_CASES).map(([key, routeCase]) => {
    const { method, path } = split(key);
    return [`${method} /api/suppliers${path}`, routeCase] as const;
  }),
  ...Object.entries(COUNT_CASES).map(([key, routeCase]) => {
    const { method, path } = split(key);
    return [`${method} /api/counts${path}`, routeCase] as const;
  }),
  ...Object.entries(PURCHASE_ORDER_CASES).map(([key, routeCase]) => {
    const { method, path } = split(key);
    return [`${method} /api/purchase-orders${path}`, routeCase] as const;
  }),
]);
const CATALOGUE_ROUTES = Object.fromEntries([
  ...Object.entries(PRODUCT_CASES).map(([key, routeCase]) => {
    const { method, path } = split(key);
    return [`${method} /api/catalogues/:catalogueId/products${path}`, routeCase] as const;
  }),
  ...Object.entries(LOCATION_CASES).map(([key, routeCase]) => {
    const { method, path } = split(key);
    return [`${method} /api/catalogues/:catalogueId/locations${path}`, routeCase] as const;
  }),
  ...Object.entries(STOCK_CASES).map(([key, routeCase]) => {
    const { method, path } = split(key);
    return [`${method} /api/catalogues/:catalogueId/stock${path}`, routeCase] as const;
  }),
  ...Object.entries(SUPPLIER_CASES).map(([key, routeCase]) => {
    const { method, path } = split(key);
    return [`${method} /api/catalogues/:catalogueId/suppliers${path}`, routeCase] as const;
  }),
  ...Object.entries(COUNT_CASES).map(([key, routeCase]) => {
    const { method, path } = split(key);
    return [`${method} /api/catalogues/:catalogueId/counts${path}`, routeCase] as const;
  }),
  ...Object.entries(PURCHASE_ORDER_CASES).map(([key, routeCase]) => {
    const { method, path } = split(key);
    return [`${method} /api/catalogues/:catalogueId/purchase-orders${path}`, routeCase] as const;
  }),
  ...Object.entries({ ...CATALOGUE_CASES, ...REPORT_CASES, ...ACTIVITY_CASES }).map(
    ([key, routeCase]) => {
      const { method, path } = split(key);
      return [`${method} /api/catalogues/:catalogueId${path}`, routeCase] as const;
    },
  ),
]);

/** Which side of the catalogue the caller is on. */
const RELATIONS = [
  'own personal catalogue',
  'shared catalogue, as this role',
  'shared catalogue of others',
  "someone else's personal catalogue",
  'no such catalogue',
  // Not a uuid at all: an unknown catalogue like any other, never a 400 that tells them apart.
  'a malformed catalogue id',
] as const;
type Relation = (typeof RELATIONS)[number];

function expectedAnswer(routeCase: RouteCase, relation: Relation, role: CatalogueRole): Expected {
  switch (relation) {
    case 'own personal catalogue':
      return routeCase.onPersonal ?? { status: routeCase.success };
    case 'shared catalogue, as this role':
      return routeCase.action === 'member' || can(role, routeCase.action)
        ? { status: routeCase.success }
        : { status: 403, body: { message: roleCannot(role, routeCase.action) } };
    default:
      return { status: 404, body: CATALOGUE_NOT_FOUND };
  }
}

const server = await build();
const rows = watchRows(server, await watchedTables(server));
afterAll(() => rows.close());

const people = {} as Record<CatalogueRole, Person>;
for (const role of CATALOGUE_ROLES) people[role] = await person(server, `The ${role}`);
const outsider = await person(server, 'Outsider');
/** A member no test signs in as: the one role changes, removals and hand-overs aim at. */
const bystander = await person(server, 'Bystander');
const others = CATALOGUE_ROLES.filter((role) => role !== 'owner');

const shared = await catalogueWith(server, people.owner, 'Shared stock', [
  ...others.map((role) => [people[role], role] as [Person, Exclude<CatalogueRole, 'owner'>]),
  [bystander, 'viewer'],
]);
const foreign = await catalogueWith(server, outsider, 'Not theirs', [[bystander, 'viewer']]);

const fixturesOf = new Map<string, Fixtures>();
function fixtures(catalogueId: string, owner: Person, personal: boolean) {
  let found = fixturesOf.get(catalogueId);
  if (!found) {
    found = new Fixtures(server, catalogueId, owner, personal, personal ? owner.id : bystander.id);
    fixturesOf.set(catalogueId, found);
  }
  return found;
}

/** The catalogue a role's request goes to, from one side. */
async function aimFor(routeCase: RouteCase, relation: Relation, caller: Person): Promise<Aim> {
  switch (relation) {
    case 'own personal catalogue':
      return { caller, catalogueId: caller.id, fixtures: fixtures(caller.id, caller, true) };
    case 'shared catalogue, as this role': {
      if (!routeCase.usesUpCatalogue) {
        return { caller, catalogueId: shared, fixtures: fixtures(shared, people.owner, false) };
      }
      // The same members in the same roles, and the bystander as an admin to hand over to.
      const fresh = await catalogueWith(server, people.owner, uniqueName('Disposable'), [
        ...others.map((role) => [people[role], role] as [Person, Exclude<CatalogueRole, 'owner'>]),
        [bystander, 'admin'],
      ]);
      return { caller, catalogueId: fresh, fixtures: fixtures(fresh, people.owner, false) };
    }
    case 'shared catalogue of others':
      return { caller, catalogueId: foreign, fixtures: fixtures(foreign, outsider, false) };
    case "someone else's personal catalogue":
      return { caller, catalogueId: outsider.id, fixtures: fixtures(outsider.id, outsider, true) };
    case 'no such catalogue':
      // Ids of things that exist, in a catalogue that does not.
      return { caller, catalogueId: randomUuid(), fixtures: fixtures(foreign, outsider, false) };
    case 'a malformed catalogue id':
      return {
        caller,
        catalogueId: 'not-a-catalogue',
        fixtures: fixtures(foreign, outsider, false),
      };
  }
}

/**
 * One request and what it must answer; a line for each way it did not, empty when it did. A
 * refusal must leave every watched row as it was.
 */
async function check(label: string, request: Request, caller: Person, expected: Expected) {
  // Only where a refusal is due (or may come): an allowed request that is refused fails anyway.
  const refusalDue = expected === 'unspecified' || expected.status >= 400;
  const before = refusalDue ? await rows.take() : undefined;
  const answer = await send(server, caller, request);
  const problems: string[] = [];
  const where = `${label}: ${request.method} ${request.url}`;
  if (expected === 'unspecified') {
    if (answer.status >= 500) problems.push(`${where} answered ${answer.status} ${answer.text}`);
  } else {
    if (answer.status !== expected.status) {
      problems.push(
        `${where} answered ${answer.status} ${answer.text.slice(0, 200)}, expected ${expected.status}`,
      );
    } else if (expected.body && JSON.stringify(answer.body) !== JSON.stringify(expected.body)) {
      problems.push(`${where} answered ${answer.text}, expected ${JSON.stringify(expected.body)}`);
    }
  }
  if (before && answer.status >= 400) {
    const changed = changes(before, await rows.take());
    if (Object.keys(changed).length > 0) {
      problems.push(
        `${where} was refused (${answer.status}) yet changed ${JSON.stringify(changed)}`,
      );
    }
  }
  return problems;
}

const routeNames = () =>
  server.app.registeredRoutes
    .filter((route) => route.config?.thirdParty !== true)
    .flatMap((route) =>
      [route.method]
        .flat()
        .filter((method) => method !== 'HEAD')
        .map((method) => `${method} ${route.url!.replace(/(.)\/$/, '$1')}`),
    );

describe('the route walk', () => {
  const scoped = (name: string) =>
    /^\w+ \/api\/(products|locations|stock|suppliers|counts|purchase-orders|catalogues\/:)/.test(
      name,
    );

  it('knows every route of the personal catalogue and of a catalogue: a new one fails here', () => {
    const unknown = routeNames()
      .filter(scoped)
      .filter((name) => !(name in PERSONAL_ROUTES) && !(name in CATALOGUE_ROUTES));
    expect(unknown).toEqual([]);
  });

  it('finds each of them registered: every products route has its catalogue mirror', () => {
    const registered = new Set(routeNames());
    const missing = [...Object.keys(PERSONAL_ROUTES), ...Object.keys(CATALOGUE_ROUTES)].filter(
      (name) => !registered.has(name),
    );
    expect(missing).toEqual([]);
  });
});

describe('the personal products routes: every member their own catalogue, whatever their roles elsewhere', () => {
  const registered = new Set(routeNames());
  for (const [name, routeCase] of Object.entries(PERSONAL_ROUTES)) {
    it.runIf(registered.has(name))(name, async () => {
      const problems: string[] = [];
      for (const role of CATALOGUE_ROLES) {
        const caller = people[role];
        const aim: Aim = {
          caller,
          catalogueId: caller.id,
          fixtures: fixtures(caller.id, caller, true),
        };
        for (const [index, build] of routeCase.requests.entries()) {
          const base = name.includes(' /api/locations')
            ? '/api/locations'
            : name.includes(' /api/stock')
              ? '/api/stock'
              : name.includes(' /api/suppliers')
                ? '/api/suppliers'
                : name.includes(' /api/counts')
                  ? '/api/counts'
                  : name.includes(' /api/purchase-orders')
                    ? '/api/purchase-orders'
                    : '/api/products';
          const request = await build(aim, base);
          const expected = { status: routeCase.success };
          problems.push(...(await check(`${role} #${index}`, request, caller, expected)));
        }
      }
      expect(problems).toEqual([]);
    });
  }
});

describe('every catalogue route x role x side of the catalogue', () => {
  const registered = new Set(routeNames());
  for (const [name, routeCase] of Object.entries(CATALOGUE_ROUTES)) {
    it.runIf(registered.has(name))(name, async () => {
      const problems: string[] = [];
      for (const role of CATALOGUE_ROLES) {
        const caller = people[role];
        for (const relation of RELATIONS) {
          for (const [index, build] of routeCase.requests.entries()) {
            const aim = await aimFor(routeCase, relation, caller);
            const catalogue = `/api/catalogues/${aim.catalogueId}`;
            const base = name.includes('/products')
              ? `${catalogue}/products`
              : name.includes('/locations')
                ? `${catalogue}/locations`
                : name.includes('/stock/')
                  ? `${catalogue}/stock`
                  : name.includes('/suppliers')
                    ? `${catalogue}/suppliers`
                    : name.includes('/counts')
                      ? `${catalogue}/counts`
                      : name.includes('/purchase-orders')
                        ? `${catalogue}/purchase-orders`
                        : catalogue;
            const request = await build(aim, base);
            // A read the owner just made may be kept for the next one: it must not reach
            // someone the catalogue refuses.
            if (request.method === 'GET') await send(server, aim.fixtures.owner, request);
            const expected = expectedAnswer(routeCase, relation, role);
            const label = `${role}, ${relation}${routeCase.requests.length > 1 ? ` #${index}` : ''}`;
            problems.push(...(await check(label, request, caller, expected)));
          }
        }
      }
      expect(problems).toEqual([]);
    });
  }
});
