import type { HTTPMethods, RouteOptions } from 'fastify';
import { connect, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { createSession } from '../../../src/server/features/accounts/sessions.js';
import { insertUser } from '../../../src/server/features/accounts/users.js';
import { isRateLimited } from '../../../src/server/http/route-options.js';
import { build } from '../support/build.js';
import { signIn, userRow } from '../support/accounts.js';

/**
 * Every error status each of our routes can send, and nothing more (200/201 aside); the reasons
 * are in src/server/http/route-responses.ts and http/route-options.ts, and the tests named in each
 * comment send them. Every route can answer 500 and 503 (shutdown.test.ts, db/outage.test.ts); a
 * route that reads a body can answer 400, 408, 413 and 415, probed below on each.
 */
const ALWAYS = [500, 503];
const BODY = [400, 408, 413, 415];
const ERROR_STATUSES: Record<string, number[]> = {
  // Public account routes: a body, a per-IP limit and the database (auth/*.test.ts, db/outage).
  'POST /api/auth/signup': [...BODY, 429, ...ALWAYS],
  'POST /api/auth/confirm-account': [...BODY, 429, ...ALWAYS],
  'POST /api/auth/resend-confirmation': [...BODY, 429, ...ALWAYS],
  // 403: an account that is not confirmed yet (auth/login.test.ts).
  'POST /api/auth/login': [...BODY, 403, 429, ...ALWAYS],
  'POST /api/auth/forgot-password': [...BODY, 429, ...ALWAYS],
  'POST /api/auth/validate-password-token': [...BODY, 429, ...ALWAYS],
  'POST /api/auth/reset-password/:token': [...BODY, 429, ...ALWAYS],
  'GET /api/auth/user': [401, 429, ...ALWAYS],
  'POST /api/auth/logout': [...BODY, 401, 429, ...ALWAYS],
  // 409: the new e-mail belongs to another account (profile/profile.test.ts).
  'PATCH /api/auth/profile': [...BODY, 401, 409, 429, ...ALWAYS],
  'POST /api/auth/profile/change-password': [...BODY, 401, 429, ...ALWAYS],
  'GET /api/auth/preferences': [401, 429, ...ALWAYS],
  'PATCH /api/auth/preferences': [...BODY, 401, 429, ...ALWAYS],
  // Two-factor sign-in (accounts/two-factor/*.test.ts). 409: set-up in the wrong state (on
  // already, nothing waiting for a code, not on); 429: the account's daily second-factor budget.
  'POST /api/auth/login/mfa': [...BODY, 429, ...ALWAYS],
  'GET /api/auth/mfa': [401, 429, ...ALWAYS],
  'POST /api/auth/mfa/totp': [...BODY, 401, 409, 429, ...ALWAYS],
  'POST /api/auth/mfa/totp/confirm': [...BODY, 401, 409, 429, ...ALWAYS],
  'DELETE /api/auth/mfa/totp': [...BODY, 401, 409, 429, ...ALWAYS],
  'POST /api/auth/mfa/recovery-codes': [...BODY, 401, 409, 429, ...ALWAYS],
  // Passkeys (e2e/passkeys.spec.ts, accounts/two-factor/passkeys.test.ts). 409: PUBLIC_URL is an
  // IP address, which browsers refuse as a passkey's site; 404: a passkey not the caller's.
  'POST /api/auth/passkeys/login/options': [...BODY, 409, 429, ...ALWAYS],
  'POST /api/auth/passkeys/login': [...BODY, 429, ...ALWAYS],
  'GET /api/auth/passkeys': [401, 429, ...ALWAYS],
  'POST /api/auth/passkeys/registration/options': [...BODY, 401, 409, 429, ...ALWAYS],
  'POST /api/auth/passkeys/registration': [...BODY, 401, 409, 429, ...ALWAYS],
  'PATCH /api/auth/passkeys/:passkeyId': [...BODY, 401, 404, 429, ...ALWAYS],
  'DELETE /api/auth/passkeys/:passkeyId': [...BODY, 401, 404, 429, ...ALWAYS],
  'GET /api/auth/sessions': [401, 429, ...ALWAYS],
  'DELETE /api/auth/sessions/:sessionId': [...BODY, 401, 404, 429, ...ALWAYS],
  'POST /api/auth/sessions/revoke-others': [...BODY, 401, 429, ...ALWAYS],
  'GET /api/auth/export': [401, 429, ...ALWAYS],
  'DELETE /api/auth/user': [...BODY, 401, 409, 429, ...ALWAYS],
  // 409: the new e-mail was taken before its code came back (profile/profile.test.ts).
  'POST /api/auth/profile/confirm-email': [...BODY, 401, 409, 429, ...ALWAYS],
  'GET /api/health': [...ALWAYS],
  'GET /api/ready': [...ALWAYS],
  // 400: an invalid query (products/list.test.ts). 404 only for a `location` not the caller's
  // (locations/find-by-location.test.ts): an empty page is a page.
  'GET /api/products': [400, 401, 404, 429, ...ALWAYS],
  // 409: a SKU or barcode another product has (products/codes.test.ts).
  // 422: an Idempotency-Key used for another request (products/idempotency.test.ts).
  'POST /api/products': [...BODY, 401, 409, 422, 429, ...ALWAYS],
  // A malformed id is an unknown one: 404, not 400 (products/crud.test.ts).
  'GET /api/products/:id': [401, 404, 429, ...ALWAYS],
  'PATCH /api/products/:id': [...BODY, 401, 404, 409, 422, 429, ...ALWAYS],
  // 400: an empty or too long code; 404: no product has it (products/codes.test.ts).
  'GET /api/products/lookup': [400, 401, 404, 429, ...ALWAYS],
  // 400: a bad query or more than 1,000 labels; 404: an id not the caller's (products/labels.test.ts).
  'GET /api/products/labels.pdf': [400, 401, 404, 429, ...ALWAYS],
  // The same with the ids in a JSON body (products/labels-post.test.ts).
  'POST /api/products/labels.pdf': [...BODY, 401, 404, 429, ...ALWAYS],
  'DELETE /api/products/:id': [...BODY, 401, 404, 422, 429, ...ALWAYS],
  // Catalogue operations (products/csv-*, stock, filters, bulk-delete tests). 409: an adjustment
  // that would take the stock below 0; 404 in a bulk delete: an id that is not the caller's.
  // 404: a `location` not the caller's, as the list (locations/find-by-location.test.ts).
  'GET /api/products/summary': [400, 401, 404, 429, ...ALWAYS],
  'GET /api/products/export.csv': [400, 401, 429, ...ALWAYS],
  'GET /api/products/stock-by-location.csv': [401, 429, ...ALWAYS],
  // 409: a code another product took while the import was written (staged-import.test.ts).
  // 422: an Idempotency-Key sent with another file or query (import-idempotency.test.ts).
  'POST /api/products/import': [...BODY, 401, 409, 422, 429, ...ALWAYS],
  // 400 also names the bad rows (locations/stock-by-location-import.test.ts).
  'POST /api/products/stock-by-location/import': [...BODY, 401, 422, 429, ...ALWAYS],
  'POST /api/products/bulk-delete': [...BODY, 401, 404, 422, 429, ...ALWAYS],
  'POST /api/products/:id/stock': [...BODY, 401, 404, 409, 422, 429, ...ALWAYS],
  'GET /api/products/:id/movements': [400, 401, 404, 429, ...ALWAYS],
  // 404: a product or a supplier not the caller's (purchasing/suppliers.test.ts).
  'PUT /api/products/:id/suppliers': [...BODY, 401, 404, 429, ...ALWAYS],
  'GET /api/images/:name': [404, ...ALWAYS],
  'GET /api/dev/mails': [404, ...ALWAYS],
  // 400: a Last-Event-ID too long; 429: an 11th stream of one user (live-events.test.ts).
  'GET /api/events': [400, 401, 429, ...ALWAYS],
};

/**
 * Every product route again in any catalogue the caller belongs to (features/catalogues): 403 for
 * a member whose role may not take its action, 404 for anyone else; its own operationId.
 */
const PRODUCT_ROUTE = / \/api\/products/;
const inCatalogue = (name: string) =>
  name.replace(PRODUCT_ROUTE, ' /api/catalogues/:catalogueId/products');
const PERSONAL_ROUTES = Object.keys(ERROR_STATUSES).filter((name) => PRODUCT_ROUTE.test(name));
for (const name of PERSONAL_ROUTES) {
  ERROR_STATUSES[inCatalogue(name)] = [...new Set([...ERROR_STATUSES[name]!, 403, 404])];
}

// Catalogues and their members (catalogues/*.test.ts). Every route of one catalogue answers 404
// to a non-member and 403 to a role that may not; 409: the personal catalogue, the owner's role.
Object.assign(ERROR_STATUSES, {
  'GET /api/catalogues': [401, 429, ...ALWAYS],
  // 409: the account owns as many catalogues as it may (invitations/account-budgets.test.ts).
  'POST /api/catalogues': [...BODY, 401, 409, 429, ...ALWAYS],
  'GET /api/catalogues/:catalogueId': [401, 403, 404, 429, ...ALWAYS],
  'PATCH /api/catalogues/:catalogueId': [...BODY, 401, 403, 404, 429, ...ALWAYS],
  'DELETE /api/catalogues/:catalogueId': [...BODY, 401, 403, 404, 409, 429, ...ALWAYS],
  'POST /api/catalogues/:catalogueId/transfer': [...BODY, 401, 403, 404, 409, 429, ...ALWAYS],
  'GET /api/catalogues/:catalogueId/members': [401, 403, 404, 429, ...ALWAYS],
  'PATCH /api/catalogues/:catalogueId/members/:userId': [
    ...[...BODY, 401, 403, 404, 409, 429, ...ALWAYS],
  ],
  'DELETE /api/catalogues/:catalogueId/members/:userId': [
    ...[...BODY, 401, 403, 404, 409, 429, ...ALWAYS],
  ],
  // Invitations (invitations/*.test.ts). 409: the address is a member already; 429: the
  // catalogue's 20 a day. 404 to the invitee: not theirs, answered, revoked or expired.
  'GET /api/catalogues/:catalogueId/invitations': [401, 403, 404, 429, ...ALWAYS],
  'POST /api/catalogues/:catalogueId/invitations': [...BODY, 401, 403, 404, 409, 429, ...ALWAYS],
  'DELETE /api/catalogues/:catalogueId/invitations/:invitationId': [
    ...[...BODY, 401, 403, 404, 429, ...ALWAYS],
  ],
  'GET /api/invitations': [401, 429, ...ALWAYS],
  'POST /api/invitations/:invitationId/accept': [...BODY, 401, 404, 429, ...ALWAYS],
  'POST /api/invitations/:invitationId/decline': [...BODY, 401, 404, 429, ...ALWAYS],
  // Webhooks (webhooks/*.test.ts). 409: the catalogue has its 20 endpoints already.
  'GET /api/catalogues/:catalogueId/webhooks': [401, 403, 404, 429, ...ALWAYS],
  'POST /api/catalogues/:catalogueId/webhooks': [...BODY, 401, 403, 404, 409, 429, ...ALWAYS],
  'GET /api/catalogues/:catalogueId/webhooks/:webhookId': [401, 403, 404, 429, ...ALWAYS],
  'PATCH /api/catalogues/:catalogueId/webhooks/:webhookId': [
    ...[...BODY, 401, 403, 404, 429, ...ALWAYS],
  ],
  'DELETE /api/catalogues/:catalogueId/webhooks/:webhookId': [
    ...[...BODY, 401, 403, 404, 429, ...ALWAYS],
  ],
  'POST /api/catalogues/:catalogueId/webhooks/:webhookId/test': [
    ...[...BODY, 401, 403, 404, 429, ...ALWAYS],
  ],
  'GET /api/catalogues/:catalogueId/webhooks/:webhookId/deliveries': [
    ...[401, 403, 404, 429, ...ALWAYS],
  ],
  'POST /api/catalogues/:catalogueId/webhooks/:webhookId/secret': [
    ...[...BODY, 401, 403, 404, 429, ...ALWAYS],
  ],
});

/**
 * Routes whose answer stays open (an event stream): inject() would wait for its end, so the
 * walks that send requests leave them out; live-events.test.ts probes them over real HTTP.
 */
const STREAMS = ['GET /api/events'];
const isStream = (route: { name: string }) => STREAMS.includes(route.name);

/** The operationId of each route: stable names, what generated clients call their methods. */
const OPERATION_IDS: Record<string, string> = {
  'POST /api/auth/signup': 'signUp',
  'POST /api/auth/confirm-account': 'confirmAccount',
  'POST /api/auth/resend-confirmation': 'resendConfirmation',
  'POST /api/auth/login': 'logIn',
  'POST /api/auth/forgot-password': 'forgotPassword',
  'POST /api/auth/validate-password-token': 'validatePasswordToken',
  'POST /api/auth/reset-password/:token': 'resetPassword',
  'GET /api/auth/user': 'getCurrentUser',
  'POST /api/auth/logout': 'logOut',
  'PATCH /api/auth/profile': 'updateProfile',
  'POST /api/auth/profile/change-password': 'changePassword',
  'GET /api/auth/preferences': 'getPreferences',
  'PATCH /api/auth/preferences': 'updatePreferences',
  'POST /api/auth/login/mfa': 'logInSecondStep',
  'GET /api/auth/mfa': 'getTwoFactorStatus',
  'POST /api/auth/mfa/totp': 'startTotpSetup',
  'POST /api/auth/mfa/totp/confirm': 'confirmTotpSetup',
  'DELETE /api/auth/mfa/totp': 'turnTotpOff',
  'POST /api/auth/mfa/recovery-codes': 'renewRecoveryCodes',
  'POST /api/auth/passkeys/login/options': 'passkeySignInOptions',
  'POST /api/auth/passkeys/login': 'passkeySignIn',
  'GET /api/auth/passkeys': 'listPasskeys',
  'POST /api/auth/passkeys/registration/options': 'passkeyRegistrationOptions',
  'POST /api/auth/passkeys/registration': 'registerPasskey',
  'PATCH /api/auth/passkeys/:passkeyId': 'renamePasskey',
  'DELETE /api/auth/passkeys/:passkeyId': 'removePasskey',
  'GET /api/auth/sessions': 'listSessions',
  'DELETE /api/auth/sessions/:sessionId': 'endSession',
  'POST /api/auth/sessions/revoke-others': 'endOtherSessions',
  'GET /api/auth/export': 'exportAccount',
  'DELETE /api/auth/user': 'deleteAccount',
  'POST /api/auth/profile/confirm-email': 'confirmEmailChange',
  'GET /api/health': 'getHealth',
  'GET /api/ready': 'getReadiness',
  'GET /api/products': 'listProducts',
  'POST /api/products': 'createProduct',
  'GET /api/products/:id': 'getProduct',
  'PATCH /api/products/:id': 'updateProduct',
  'GET /api/products/lookup': 'lookupProduct',
  'GET /api/products/labels.pdf': 'printProductLabels',
  'POST /api/products/labels.pdf': 'printProductLabelsFromBody',
  'DELETE /api/products/:id': 'deleteProduct',
  'GET /api/products/summary': 'getProductSummary',
  'GET /api/products/export.csv': 'exportProductsCsv',
  'GET /api/products/stock-by-location.csv': 'exportStockByLocationCsv',
  'POST /api/products/import': 'importProductsCsv',
  'POST /api/products/stock-by-location/import': 'importStockByLocationCsv',
  'POST /api/products/bulk-delete': 'bulkDeleteProducts',
  'POST /api/products/:id/stock': 'adjustStock',
  'GET /api/products/:id/movements': 'listStockMovements',
  'PUT /api/products/:id/suppliers': 'setProductSuppliers',
  'GET /api/images/:name': 'getImage',
  'GET /api/dev/mails': 'listDevMails',
  'GET /api/events': 'streamEvents',
};

for (const name of PERSONAL_ROUTES) {
  OPERATION_IDS[inCatalogue(name)] = `${OPERATION_IDS[name]!}InCatalogue`;
}
Object.assign(OPERATION_IDS, {
  'GET /api/catalogues': 'listCatalogues',
  'POST /api/catalogues': 'createCatalogue',
  'GET /api/catalogues/:catalogueId': 'getCatalogue',
  'PATCH /api/catalogues/:catalogueId': 'renameCatalogue',
  'DELETE /api/catalogues/:catalogueId': 'deleteCatalogue',
  'POST /api/catalogues/:catalogueId/transfer': 'transferCatalogue',
  'GET /api/catalogues/:catalogueId/members': 'listCatalogueMembers',
  'PATCH /api/catalogues/:catalogueId/members/:userId': 'changeMemberRole',
  'DELETE /api/catalogues/:catalogueId/members/:userId': 'removeCatalogueMember',
  'GET /api/catalogues/:catalogueId/invitations': 'listCatalogueInvitations',
  'POST /api/catalogues/:catalogueId/invitations': 'inviteToCatalogue',
  'DELETE /api/catalogues/:catalogueId/invitations/:invitationId': 'revokeInvitation',
  'GET /api/invitations': 'listReceivedInvitations',
  'POST /api/invitations/:invitationId/accept': 'acceptInvitation',
  'POST /api/invitations/:invitationId/decline': 'declineInvitation',
  'GET /api/catalogues/:catalogueId/webhooks': 'listWebhooks',
  'POST /api/catalogues/:catalogueId/webhooks': 'createWebhook',
  'GET /api/catalogues/:catalogueId/webhooks/:webhookId': 'getWebhook',
  'PATCH /api/catalogues/:catalogueId/webhooks/:webhookId': 'updateWebhook',
  'DELETE /api/catalogues/:catalogueId/webhooks/:webhookId': 'deleteWebhook',
  'POST /api/catalogues/:catalogueId/webhooks/:webhookId/test': 'testWebhook',
  'GET /api/catalogues/:catalogueId/webhooks/:webhookId/deliveries': 'listWebhookDeliveries',
  'POST /api/catalogues/:catalogueId/webhooks/:webhookId/secret': 'rotateWebhookSecret',
});

// Locations (locations/*.test.ts), the personal catalogue's and any catalogue's. 404: a location
// (or a parent, or a label's location) not in the catalogue; 409: a name or code taken, a cycle,
// the depth or the count reached, a location that is not empty.
const UNKNOWN_LOCATION = '00000000-0000-4000-8000-000000000000';
for (const [base, suffix, scoped] of [
  ['/api/locations', '', []],
  ['/api/catalogues/:catalogueId/locations', 'InCatalogue', [403, 404]],
] as const) {
  const routes: [string, string, number[]][] = [
    [`GET ${base}`, 'listLocations', [401]],
    [`POST ${base}`, 'createLocation', [...BODY, 401, 404, 409]],
    [`GET ${base}/labels.pdf`, 'printLocationLabels', [400, 401, 404]],
    [`POST ${base}/labels.pdf`, 'printLocationLabelsFromBody', [...BODY, 401, 404]],
    [`GET ${base}/:locationId`, 'getLocation', [401, 404]],
    [`PATCH ${base}/:locationId`, 'updateLocation', [...BODY, 401, 404, 409]],
    [`DELETE ${base}/:locationId`, 'deleteLocation', [...BODY, 401, 404, 409]],
  ];
  for (const [name, operationId, statuses] of routes) {
    ERROR_STATUSES[name] = [...new Set([...statuses, ...scoped, 429, ...ALWAYS])];
    OPERATION_IDS[name] = `${operationId}${suffix}`;
  }
}

// Moves of stock between locations (locations/transfers.test.ts), the personal catalogue's and
// any catalogue's. 404: a product or location not in the catalogue; 409: a location would go
// below 0; 422: an Idempotency-Key reused with another body.
for (const [base, suffix, scoped] of [
  ['/api/stock', '', []],
  ['/api/catalogues/:catalogueId/stock', 'InCatalogue', [403, 404]],
] as const) {
  const name = `POST ${base}/transfers`;
  ERROR_STATUSES[name] = [...new Set([...BODY, 401, ...scoped, 404, 409, 422, 429, ...ALWAYS])];
  OPERATION_IDS[name] = `transferStock${suffix}`;
}

// Suppliers (purchasing/suppliers.test.ts), the personal catalogue's and any catalogue's. 404: a
// supplier not in the catalogue; 409: a name taken, the count reached, a supplier with orders.
for (const [base, suffix, scoped] of [
  ['/api/suppliers', '', []],
  ['/api/catalogues/:catalogueId/suppliers', 'InCatalogue', [403, 404]],
] as const) {
  const routes: [string, string, number[]][] = [
    [`GET ${base}`, 'listSuppliers', [401]],
    [`POST ${base}`, 'createSupplier', [...BODY, 401, 409]],
    [`GET ${base}/:supplierId`, 'getSupplier', [401, 404]],
    [`PATCH ${base}/:supplierId`, 'updateSupplier', [...BODY, 401, 404, 409]],
    [`DELETE ${base}/:supplierId`, 'deleteSupplier', [...BODY, 401, 404, 409]],
  ];
  for (const [name, operationId, statuses] of routes) {
    ERROR_STATUSES[name] = [...new Set([...statuses, ...scoped, 429, ...ALWAYS])];
    OPERATION_IDS[name] = `${operationId}${suffix}`;
  }
}

// Stock counts (counts/*.test.ts), the personal catalogue's and any catalogue's. 400: a bad
// page of lines, a bad body; 404: a count, or a product or location named, not in the catalogue;
// 409: a scope with an open count, a line out of the scope or of a count not open, a count
// posted or cancelled; 422: an Idempotency-Key reused with another body.
for (const [base, suffix, scoped] of [
  ['/api/counts', '', []],
  ['/api/catalogues/:catalogueId/counts', 'InCatalogue', [403, 404]],
] as const) {
  const routes: [string, string, number[]][] = [
    [`GET ${base}`, 'listCounts', [401]],
    [`POST ${base}`, 'startCount', [...BODY, 401, 404, 409, 422]],
    [`GET ${base}/:countId`, 'getCount', [400, 401, 404]],
    [`GET ${base}/:countId.csv`, 'exportCountCsv', [401, 404]],
    [`GET ${base}/:countId/sheet.pdf`, 'printCountSheet', [401, 404]],
    [`POST ${base}/:countId/lines`, 'countLine', [...BODY, 401, 404, 409, 422]],
    [`POST ${base}/:countId/review`, 'reviewCount', [...BODY, 401, 404, 409, 422]],
    [`POST ${base}/:countId/post`, 'postCount', [...BODY, 401, 404, 409, 422]],
    [`POST ${base}/:countId/cancel`, 'cancelCount', [...BODY, 401, 404, 409, 422]],
  ];
  for (const [name, operationId, statuses] of routes) {
    ERROR_STATUSES[name] = [...new Set([...statuses, ...scoped, 429, ...ALWAYS])];
    OPERATION_IDS[name] = `${operationId}${suffix}`;
  }
}

// Purchase orders (purchasing/purchase-orders.test.ts), the personal catalogue's and any
// catalogue's. 404: an order, supplier, product or location not in the catalogue; 409: a move the
// order's status refuses, an order sent already; 422: an Idempotency-Key reused with another
// receipt, a supplier without an address to send to.
for (const [base, suffix, scoped] of [
  ['/api/purchase-orders', '', []],
  ['/api/catalogues/:catalogueId/purchase-orders', 'InCatalogue', [403, 404]],
] as const) {
  const routes: [string, string, number[]][] = [
    [`GET ${base}`, 'listPurchaseOrders', [400, 401]],
    [`POST ${base}`, 'createPurchaseOrder', [...BODY, 401, 404]],
    [`POST ${base}/from-reorder`, 'draftPurchaseOrdersFromReorder', [...BODY, 401]],
    [`GET ${base}/:poId`, 'getPurchaseOrder', [401, 404]],
    [`GET ${base}/:poId.pdf`, 'printPurchaseOrder', [401, 404]],
    [`GET ${base}/:poId.csv`, 'exportPurchaseOrderCsv', [401, 404]],
    [`PATCH ${base}/:poId`, 'updatePurchaseOrder', [...BODY, 401, 404, 409]],
    [`DELETE ${base}/:poId`, 'deletePurchaseOrder', [...BODY, 401, 404, 409]],
    [`POST ${base}/:poId/receipts`, 'receivePurchaseOrder', [...BODY, 401, 404, 409, 422]],
    [`POST ${base}/:poId/send`, 'sendPurchaseOrder', [...BODY, 401, 404, 409, 422]],
  ];
  for (const [name, operationId, statuses] of routes) {
    ERROR_STATUSES[name] = [...new Set([...statuses, ...scoped, 429, ...ALWAYS])];
    OPERATION_IDS[name] = `${operationId}${suffix}`;
  }
}

// The stock reports (reports/*.test.ts), the personal catalogue's and any catalogue's (not under
// its /products). 400: a period or a limit that is not offered (each CSV file takes its JSON's).
const REPORTS: [string, string][] = [
  ['stock-over-time', 'getStockOverTime'],
  ['stock-over-time.csv', 'exportStockOverTimeCsv'],
  ['top-movers', 'getTopMovers'],
  ['top-movers.csv', 'exportTopMoversCsv'],
  ['dead-stock', 'getDeadStock'],
  ['dead-stock.csv', 'exportDeadStockCsv'],
  ['to-reorder', 'getToReorder'],
  ['to-reorder.csv', 'exportToReorderCsv'],
];
for (const [path, operationId] of REPORTS) {
  const statuses = [400, 401, 429, ...ALWAYS];
  ERROR_STATUSES[`GET /api/products/reports/${path}`] = statuses;
  ERROR_STATUSES[`GET /api/catalogues/:catalogueId/reports/${path}`] = [...statuses, 403, 404];
  OPERATION_IDS[`GET /api/products/reports/${path}`] = operationId;
  OPERATION_IDS[`GET /api/catalogues/:catalogueId/reports/${path}`] = `${operationId}InCatalogue`;
}

// The activity log (activity/*.test.ts), the personal catalogue's and any catalogue's. 400: a
// bad filter or cursor; 404: an entry not in the catalogue; 409: an undo the state has moved past.
for (const [base, suffix, scoped] of [
  ['/api/products', '', []],
  ['/api/catalogues/:catalogueId', 'InCatalogue', [403, 404]],
] as const) {
  ERROR_STATUSES[`GET ${base}/activity`] = [400, 401, ...scoped, 429, ...ALWAYS];
  ERROR_STATUSES[`POST ${base}/activity/:entryId/undo`] = [
    ...new Set([...BODY, 401, ...scoped, 404, 409, 429, ...ALWAYS]),
  ];
  OPERATION_IDS[`GET ${base}/activity`] = `listActivity${suffix}`;
  OPERATION_IDS[`POST ${base}/activity/:entryId/undo`] = `undoActivity${suffix}`;
}

/** Routes that read nothing from a POST, PATCH or DELETE body (they still parse one). */
const NO_BODY = [
  'POST /api/auth/logout',
  'POST /api/auth/sessions/revoke-others',
  'POST /api/auth/mfa/totp',
  'POST /api/auth/passkeys/registration/options',
  'DELETE /api/products/:id',
  inCatalogue('DELETE /api/products/:id'),
  'DELETE /api/catalogues/:catalogueId',
  'DELETE /api/catalogues/:catalogueId/members/:userId',
  'DELETE /api/catalogues/:catalogueId/invitations/:invitationId',
  'POST /api/invitations/:invitationId/accept',
  'POST /api/invitations/:invitationId/decline',
  'DELETE /api/catalogues/:catalogueId/webhooks/:webhookId',
  'POST /api/catalogues/:catalogueId/webhooks/:webhookId/test',
  'POST /api/catalogues/:catalogueId/webhooks/:webhookId/secret',
  'POST /api/products/activity/:entryId/undo',
  'POST /api/catalogues/:catalogueId/activity/:entryId/undo',
  'DELETE /api/locations/:locationId',
  'DELETE /api/catalogues/:catalogueId/locations/:locationId',
  'DELETE /api/suppliers/:supplierId',
  'DELETE /api/catalogues/:catalogueId/suppliers/:supplierId',
  ...['/api/counts', '/api/catalogues/:catalogueId/counts'].flatMap((base) => [
    `POST ${base}/:countId/review`,
    `POST ${base}/:countId/cancel`,
  ]),
  'POST /api/purchase-orders/from-reorder',
  'POST /api/catalogues/:catalogueId/purchase-orders/from-reorder',
  'DELETE /api/purchase-orders/:poId',
  'DELETE /api/catalogues/:catalogueId/purchase-orders/:poId',
  'POST /api/purchase-orders/:poId/send',
  'POST /api/catalogues/:catalogueId/purchase-orders/:poId/send',
];

/** Where the unknown resource is named in the body, not the URL: a body that names one. */
/** Deletes that ask for the password (and a code) first, in their body. */
const DELETE_WITH_BODY = [
  'DELETE /api/auth/mfa/totp',
  'DELETE /api/auth/passkeys/:passkeyId',
  'DELETE /api/auth/user',
];

const NOT_FOUND_BODIES: Record<string, object> = {
  'POST /api/products/bulk-delete': { ids: ['00000000-0000-4000-8000-000000000000'] },
  'PATCH /api/auth/passkeys/:passkeyId': { name: 'Laptop' },
  'DELETE /api/auth/passkeys/:passkeyId': { password: 'any-Password-1' },
  'POST /api/products/labels.pdf': { ids: ['00000000-0000-4000-8000-000000000000'] },
  'POST /api/locations': { name: 'Shelf', parentId: UNKNOWN_LOCATION },
  'PUT /api/products/:id/suppliers': { suppliers: [] },
  'POST /api/purchase-orders': { supplierId: UNKNOWN_LOCATION },
  'PATCH /api/purchase-orders/:poId': { notes: 'x' },
  'POST /api/purchase-orders/:poId/receipts': {
    locationId: UNKNOWN_LOCATION,
    lines: [{ productId: UNKNOWN_LOCATION, quantity: 1 }],
  },
  'POST /api/locations/labels.pdf': { ids: [UNKNOWN_LOCATION] },
  'POST /api/counts': {
    scope: { kind: 'location', locationId: UNKNOWN_LOCATION },
  },
  'POST /api/counts/:countId/lines': {
    productId: UNKNOWN_LOCATION,
    locationId: UNKNOWN_LOCATION,
    counted: 1,
  },
  'POST /api/stock/transfers': {
    productId: UNKNOWN_LOCATION,
    from: UNKNOWN_LOCATION,
    to: '00000000-0000-4000-8000-000000000001',
    quantity: 1,
  },
};

interface Route {
  name: string;
  method: HTTPMethods;
  url: string;
  options: RouteOptions;
  schema: Record<string, unknown>;
  response: Record<string, unknown>;
}

/** Whether a route refuses to go on without a body (Fastify validates an absent one as null). */
const needsBody = (route: Route) => {
  const body = route.schema.body as ZodType | undefined;
  if (body === undefined) return false;
  // A multipart form describes its parts in JSON Schema and checks them itself.
  return typeof body.safeParse !== 'function' || !body.safeParse(null).success;
};

const documented = (route: Route) => Object.keys(route.response).map(Number);
const errorsOf = (route: Route) => documented(route).filter((status) => status >= 400);

/** A URL for a route pattern: a value that passes each parameter's schema. */
/** The query a route needs to get past its own checks, when it requires one. */
const SAMPLE_QUERIES: Record<string, string> = {
  '/api/products': '?location=00000000-0000-4000-8000-000000000000',
  '/api/catalogues/:catalogueId/products': '?location=00000000-0000-4000-8000-000000000000',
  '/api/products/summary': '?location=00000000-0000-4000-8000-000000000000',
  '/api/catalogues/:catalogueId/products/summary': '?location=00000000-0000-4000-8000-000000000000',
  '/api/products/lookup': '?code=unknown',
  '/api/products/labels.pdf': '?ids=00000000-0000-4000-8000-000000000000',
  '/api/catalogues/:catalogueId/products/lookup': '?code=unknown',
  '/api/catalogues/:catalogueId/products/labels.pdf': '?ids=00000000-0000-4000-8000-000000000000',
  '/api/locations/labels.pdf': '?ids=00000000-0000-4000-8000-000000000000',
  '/api/catalogues/:catalogueId/locations/labels.pdf': '?ids=00000000-0000-4000-8000-000000000000',
};

/** A catalogue: by default one that does not exist; a member's own for routes to get past it. */
const sample = (url: string, catalogueId = '00000000-0000-4000-8000-00000000000c') =>
  url
    .replace(':catalogueId', catalogueId)
    .replace(':token', '123456')
    .replace(':invitationId', '00000000-0000-4000-8000-000000000000')
    .replace(':entryId', '999999999')
    .replace(':locationId', '00000000-0000-4000-8000-000000000000')
    .replace(':supplierId', '00000000-0000-4000-8000-000000000000')
    .replace(':countId', '00000000-0000-4000-8000-000000000000')
    .replace(':poId', '00000000-0000-4000-8000-000000000000')
    .replace(':id', '00000000-0000-4000-8000-000000000000')
    .replace(':name', 'missing.webp') + (SAMPLE_QUERIES[url] ?? '');

/**
 * The walk over every registered route. Ours are the routes not added through registerPublic
 * (config.thirdParty): CORS preflight, the API docs (and their JSON) and the client's files
 * are other libraries' routes and document nothing of ours.
 */
describe('every route declares its request and response schemas', async () => {
  const server = await build();
  const user = await signIn(server);
  // The personal catalogue's id is its owner's.
  const { id: own } = (await userRow(server, user.email))!;

  const ours: Route[] = server.app.registeredRoutes
    .filter((route) => route.config?.thirdParty !== true)
    .flatMap((options) =>
      [options.method]
        .flat()
        // Fastify adds a HEAD route for each GET, with the GET's options.
        .filter((method) => method !== 'HEAD')
        .map((method) => {
          const url = options.url!.replace(/(.)\/$/, '$1');
          const schema = (options.schema ?? {}) as Record<string, unknown>;
          return {
            name: `${method} ${url}`,
            method: method as HTTPMethods,
            url,
            options,
            schema,
            response: (schema.response ?? {}) as Record<string, unknown>,
          };
        }),
    );

  it('walks exactly our routes', () => {
    expect(ours.map((route) => route.name).sort()).toEqual(Object.keys(ERROR_STATUSES).sort());
  });

  it('declares a response for success and for every error', () => {
    for (const route of ours) {
      expect(documented(route).filter((status) => status < 300).length, route.name).toBe(1);
      expect(errorsOf(route).sort(), route.name).toEqual([...ERROR_STATUSES[route.name]!].sort());
    }
  });

  it('names each operation: a stable camelCase operationId, one per route', () => {
    for (const route of ours) {
      expect(route.schema.operationId, route.name).toBe(OPERATION_IDS[route.name]);
      expect(route.schema.operationId, route.name).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    }
    expect(new Set(ours.map((route) => route.schema.operationId)).size).toBe(ours.length);
  });

  it('declares the input it takes: params, query and body', () => {
    for (const route of ours) {
      const params = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1]);
      if (params.length > 0) {
        const shape = (route.schema.params as { shape?: object } | undefined)?.shape ?? {};
        expect(Object.keys(shape), route.name).toEqual(params);
      }
      const takesBody =
        (['POST', 'PUT', 'PATCH'].includes(route.method) && !NO_BODY.includes(route.name)) ||
        DELETE_WITH_BODY.includes(route.name);
      expect(route.schema.body !== undefined, `${route.name} body`).toBe(takesBody);
    }
    const list = ours.find((route) => route.name === 'GET /api/products')!;
    expect(list.schema.querystring).toBeDefined();
  });

  it('documents 401 exactly where a token is needed, 429 where a limit applies', () => {
    for (const route of ours) {
      const errors = errorsOf(route);
      expect(errors.includes(401), route.name).toBe(route.options.config?.public !== true);
      expect(errors.includes(429), route.name).toBe(isRateLimited(route.options.config));
    }
  });

  it('documents 403 and 409 only on the route that sends each', () => {
    const with403 = ours.filter((route) => errorsOf(route).includes(403));
    const with409 = ours.filter((route) => errorsOf(route).includes(409));
    const ofOneCatalogue = Object.keys(ERROR_STATUSES).filter((name) =>
      name.includes(':catalogueId'),
    );
    expect(with403.map((route) => route.name).sort()).toEqual(
      ['POST /api/auth/login', ...ofOneCatalogue].sort(),
    );
    const productConflicts = [
      'PATCH /api/products/:id',
      'POST /api/products',
      'POST /api/products/:id/stock',
      'POST /api/products/import',
    ];
    expect(with409.map((route) => route.name).sort()).toEqual(
      [
        'PATCH /api/auth/profile',
        'POST /api/auth/profile/confirm-email',
        'POST /api/auth/mfa/totp',
        'POST /api/auth/mfa/totp/confirm',
        'DELETE /api/auth/mfa/totp',
        'DELETE /api/auth/user',
        'POST /api/auth/mfa/recovery-codes',
        'POST /api/auth/passkeys/login/options',
        'POST /api/auth/passkeys/registration/options',
        'POST /api/auth/passkeys/registration',
        ...productConflicts,
        ...productConflicts.map(inCatalogue),
        'POST /api/catalogues',
        'DELETE /api/catalogues/:catalogueId',
        'POST /api/catalogues/:catalogueId/transfer',
        'PATCH /api/catalogues/:catalogueId/members/:userId',
        'DELETE /api/catalogues/:catalogueId/members/:userId',
        'POST /api/catalogues/:catalogueId/invitations',
        'POST /api/catalogues/:catalogueId/webhooks',
        ...['/api/locations', '/api/catalogues/:catalogueId/locations'].flatMap((base) => [
          `POST ${base}`,
          `PATCH ${base}/:locationId`,
          `DELETE ${base}/:locationId`,
        ]),
        ...['/api/suppliers', '/api/catalogues/:catalogueId/suppliers'].flatMap((base) => [
          `POST ${base}`,
          `PATCH ${base}/:supplierId`,
          `DELETE ${base}/:supplierId`,
        ]),
        ...['/api/purchase-orders', '/api/catalogues/:catalogueId/purchase-orders'].flatMap(
          (base) => [
            `PATCH ${base}/:poId`,
            `DELETE ${base}/:poId`,
            `POST ${base}/:poId/receipts`,
            `POST ${base}/:poId/send`,
          ],
        ),
        'POST /api/products/activity/:entryId/undo',
        'POST /api/catalogues/:catalogueId/activity/:entryId/undo',
        'POST /api/stock/transfers',
        'POST /api/catalogues/:catalogueId/stock/transfers',
        ...['/api/counts', '/api/catalogues/:catalogueId/counts'].flatMap((base) => [
          `POST ${base}`,
          ...['lines', 'review', 'post', 'cancel'].map((tail) => `POST ${base}/:countId/${tail}`),
        ]),
      ].sort(),
    );
  });

  /** Bodies no route takes, and what each is refused with where a body is read. */
  const BAD_BODIES = [
    { status: 400, type: 'application/json', payload: '{' },
    // No body, typed JSON: refused where a body is needed (bad-input.test.ts: answered as none
    // elsewhere, as a client that sets the JSON type on every request sends a logout).
    { status: 400, type: 'application/json', payload: '' },
    // Past the app's 64 KiB, or a route's own larger limit (a move of 500 lines).
    { status: 413, type: 'application/json', payload: JSON.stringify({ x: 'x'.repeat(70_000) }) },
    { status: 415, type: 'text/plain', payload: 'hello' },
  ];

  it('refuses a bad or empty body with 400, 413 and 415 where one is read, and documents them', async () => {
    for (const route of ours.filter((candidate) => !isStream(candidate))) {
      const readsBody = route.method !== 'GET';
      if (!readsBody) {
        expect(errorsOf(route), route.name).not.toContain(413);
        expect(errorsOf(route), route.name).not.toContain(415);
      }
      for (const bad of BAD_BODIES) {
        if (bad.payload === '' && readsBody) {
          // Answered as no body at all (a route that needs none goes on: not sent here).
          if (!needsBody(route)) continue;
          const url = sample(route.url, own);
          const typed = await server.app.inject({
            method: route.method,
            url,
            headers: { ...user.headers, 'content-type': bad.type },
            payload: '',
          });
          const bare = await server.app.inject({
            method: route.method,
            url,
            headers: user.headers,
          });
          expect(typed.statusCode, `${route.name} (JSON, 0 bytes)`).toBe(bare.statusCode);
          expect(typed.json(), `${route.name} (JSON, 0 bytes)`).toEqual(bare.json());
          continue;
        }
        const { status, type } = bad;
        const limit = route.options.bodyLimit;
        const payload =
          status === 413 && limit ? JSON.stringify({ x: 'x'.repeat(limit + 1) }) : bad.payload;
        const res = await server.app.inject({
          method: route.method,
          url: sample(route.url, own),
          headers: { ...user.headers, 'content-type': type },
          payload,
        });
        const name = `${route.name} (${type}, ${payload.length} bytes)`;
        if (readsBody) {
          expect(res.statusCode, name).toBe(status);
          expect(errorsOf(route), name).toContain(status);
        } else {
          // A GET ignores its body: what it answers does not depend on one.
          expect([400, 413, 415], name).not.toContain(res.statusCode);
        }
      }
    }
  });

  it('sends 404 where it documents one: an unknown id or image, the mailbox to a stranger', async () => {
    for (const route of ours.filter((candidate) => errorsOf(candidate).includes(404))) {
      const res = await server.app.inject({
        method: route.method,
        url: sample(route.url),
        headers: user.headers,
        // Not the developer's machine: the development mailbox is not there for it.
        remoteAddress: '10.1.2.3',
        ...(route.method === 'GET' ? {} : { payload: NOT_FOUND_BODIES[route.name] ?? {} }),
      });
      expect(res.statusCode, route.name).toBe(404);
    }
  });

  it('documents in the OpenAPI description what the routes declare, at the paths clients call', async () => {
    const doc = (await server.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, Operation>>;
    };
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        // No trailing slash to take off: '/api/products', as the app and the README call it.
        name: `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`,
        operation,
      })),
    );
    // The development mailbox is registered here (no SMTP) and documented like any route.
    expect(operations.map(({ name }) => name).sort()).toEqual(ours.map(({ name }) => name).sort());
    for (const { name, operation } of operations) {
      const route = ours.find((candidate) => candidate.name === name)!;
      expect(Object.keys(operation.responses).map(Number).sort(), name).toEqual(
        documented(route).sort(),
      );
      expect(operation.operationId, name).toBe(OPERATION_IDS[name]);
      // From the one place that decides it: config.public (http/authenticate.ts).
      const isPublic = route.options.config?.public === true;
      expect(operation.security, name).toEqual(isPublic ? [] : [{ bearer: [] }]);
      // A body read is required, but those of options that may be left out whole.
      if (operation.requestBody) {
        const optional =
          name.endsWith('/:countId/post') || name === 'POST /api/auth/passkeys/login/options';
        expect(operation.requestBody.required, name).toBe(!optional);
      }
    }
  });

  it('documents the headers each answer carries, and its shape by name', async () => {
    const doc = (await server.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, Operation>>;
      components: { headers: Record<string, { required?: boolean }> };
    };
    expect(doc.components.headers['Retry-After']!.required).toBe(true);
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const name = `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`;
        const route = ours.find((candidate) => candidate.name === name)!;
        const limited = isRateLimited(route.options.config);
        for (const [status, response] of Object.entries(operation.responses)) {
          const headers = Object.keys(response.headers ?? {});
          const where = `${name} ${status}`;
          expect(headers.includes('Retry-After'), where).toBe(status === '429' || status === '503');
          expect(headers.includes('X-RateLimit-Remaining'), where).toBe(limited);
          expect(headers, where).toContain('Access-Control-Allow-Origin');
          if (Number(status) >= 400) {
            const ref = (shape: string) => ({ $ref: `#/components/schemas/${shape}` });
            const shape = status === '400' ? ref('ValidationError') : ref('Error');
            // A refused import answers its report beside the usual 400.
            const report = (id: string) => ({ anyOf: [ref(id), ref('ValidationError')] });
            const refusedImport = (route: string) =>
              [name, inCatalogue(name)].includes(inCatalogue(route)) && status === '400';
            const schema = refusedImport('POST /api/products/import')
              ? report('ImportReport')
              : refusedImport('POST /api/products/stock-by-location/import')
                ? report('StockImportReport')
                : shape;
            expect(response.content, where).toEqual({ 'application/json': { schema } });
          }
        }
      }
    }
  });
});

interface Operation {
  operationId: string;
  security: unknown;
  requestBody?: { required?: boolean };
  responses: Record<string, { headers?: object; content?: object }>;
}

/**
 * 408 where a body is read: a request whose body does not arrive within the request limit is
 * answered 408 and its connection closed (http/request-timeouts.ts), on every such route.
 */
describe('every route that reads a body answers a body that never arrives with 408', async () => {
  const server = await build({ timeouts: { request: 300, upload: 300 } });
  const user = await signIn(server);
  const { id: own } = (await userRow(server, user.email))!;
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = server.app.server.address() as AddressInfo;

  /** The status line the server writes to a request that announces 10 bytes and sends 1. */
  const stalled = (method: string, url: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect({ port, host: '127.0.0.1' });
      let received = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (received += chunk));
      socket.on('error', () => {});
      socket.on('close', () => resolve(received.split('\r\n', 1)[0]!));
      socket.once('connect', () =>
        socket.write(
          [
            `${method} ${url} HTTP/1.1`,
            'Host: localhost',
            `Authorization: ${user.headers.authorization}`,
            'Content-Type: application/json',
            'Content-Length: 10',
            '',
            '{',
          ].join('\r\n'),
        ),
      );
      setTimeout(() => reject(new Error(`${method} ${url}: no answer`)), 5_000).unref();
    });

  it('sends 408 exactly where it documents it', async () => {
    const routes = Object.entries(ERROR_STATUSES).filter(([name]) => !name.startsWith('GET '));
    const answers = await Promise.all(
      routes.map(([name]) => {
        const [method, url] = name.split(' ') as [string, string];
        return stalled(method, sample(url, own));
      }),
    );
    for (const [index, [name, statuses]] of routes.entries()) {
      expect(statuses, name).toContain(408);
      expect(answers[index], name).toBe('HTTP/1.1 408 Request Timeout');
    }
    // And only there.
    for (const [name, statuses] of Object.entries(ERROR_STATUSES)) {
      expect(statuses.includes(408), name).toBe(!name.startsWith('GET '));
    }
  });
});

/**
 * The per-IP limits, probed on every route: with a budget of one request per window, the second
 * request from an address gets 429 exactly where the route documents it.
 */
describe('every rate-limited route documents 429, and only those', async () => {
  const server = await build({ rateLimits: { sensitive: 1, general: 1 } });
  // A session written straight to the database: signing in through the API would spend budgets.
  const userId = await insertUser(
    server.database.db,
    { name: 'Rita', email: 'rita@example.com', passwordHash: 'unused' },
    server.clock.now(),
  );
  const token = await createSession(server.database.db, server.clock, userId);

  it('answers the second request from one address with 429 where documented', async () => {
    const routes = server.app.registeredRoutes.filter(
      (route) => route.config?.thirdParty !== true && route.method !== 'HEAD',
    );
    expect(routes.length).toBe(Object.keys(ERROR_STATUSES).length);
    for (const [index, route] of routes.entries()) {
      const method = route.method as HTTPMethods;
      // A collection's route is registered as '/api/products/'; clients call '/api/products'.
      const url = route.url.replace(/(.)\/$/, '$1');
      const name = `${method} ${url}`;
      if (isStream({ name })) continue;
      // An address of its own per route: budgets are per IP and per route.
      const remoteAddress = `10.0.${Math.floor(index / 200)}.${(index % 200) + 1}`;
      const send = () =>
        server.app.inject({
          method,
          url: sample(url, userId),
          remoteAddress,
          headers: { authorization: `Bearer ${token}` },
          ...(method === 'GET' ? {} : { payload: {} }),
        });
      await send();
      const second = await send();
      const documents429 = ERROR_STATUSES[name]!.includes(429);
      expect(second.statusCode === 429, name).toBe(documents429);
    }
  });
});
