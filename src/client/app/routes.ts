import { index, layout, route, type RouteConfig } from '@react-router/dev/routes';
import { paths } from '../lib/paths.js';

/**
 * The app's one route table: each route module is its own chunk, loaded with the screens it
 * matches. The build prerenders some of them (react-router.config.ts) and the server serves what
 * the build wrote, so nothing else lists the routes.
 */
export default [
  route(paths.auth.root.path, 'routes/auth-layout.tsx', [
    index('routes/auth-index.tsx'),
    route(paths.auth.login.path, 'routes/login.tsx'),
    route(paths.auth.signup.path, 'routes/signup.tsx'),
    route(paths.auth.confirmAccount.path, 'routes/confirm-account.tsx'),
    route(paths.auth.newCode.path, 'routes/new-code.tsx'),
    route(paths.auth.forgotPassword.path, 'routes/forgot-password.tsx'),
    route(paths.auth.resetPassword.path, 'routes/reset-password.tsx'),
  ]),
  route(paths.devMailbox.path, 'routes/dev-mailbox.tsx'),
  layout('routes/main-layout.tsx', [
    index('routes/products.tsx'),
    route(paths.products.create.path, 'routes/create-product.tsx', { id: 'create-product' }),
    route(paths.products.add.path, 'routes/create-product.tsx', { id: 'add-product' }),
    route(paths.products.edit.path, 'routes/edit-product.tsx'),
    route(paths.products.details.path, 'routes/product-details.tsx'),
    route(paths.products.import.path, 'routes/import-products.tsx'),
    route(paths.products.importStock.path, 'routes/import-stock-by-location.tsx'),
    route(paths.scan.path, 'routes/scan.tsx'),
    route(paths.reports.path, 'routes/reports.tsx'),
    route(paths.locations.list.path, 'routes/locations.tsx'),
    route(paths.locations.location.path, 'routes/location.tsx'),
    route(paths.counts.list.path, 'routes/counts.tsx'),
    route(paths.counts.count.path, 'routes/count.tsx'),
    route(paths.suppliers.path, 'routes/suppliers.tsx'),
    route(paths.purchaseOrders.list.path, 'routes/purchase-orders.tsx'),
    route(paths.purchaseOrders.order.path, 'routes/purchase-order.tsx'),
    route(paths.catalogues.path, 'routes/catalogues.tsx'),
    route(paths.invitations.path, 'routes/invitations.tsx'),
    route(paths.activity.path, 'routes/activity.tsx'),
    // A shared catalogue: the personal catalogue's screens again (their modules, other ids), and
    // its settings; the layout checks the catalogue is one of the user's.
    route(paths.catalogue.root, 'routes/catalogue-layout.tsx', [
      index('routes/products.tsx', { id: 'catalogue-products' }),
      route(paths.catalogue.create, 'routes/create-product.tsx', {
        id: 'catalogue-create-product',
      }),
      route(paths.catalogue.import, 'routes/import-products.tsx', {
        id: 'catalogue-import-products',
      }),
      route(paths.catalogue.importStock, 'routes/import-stock-by-location.tsx', {
        id: 'catalogue-import-stock-by-location',
      }),
      route(paths.catalogue.details, 'routes/product-details.tsx', {
        id: 'catalogue-product-details',
      }),
      route(paths.catalogue.edit, 'routes/edit-product.tsx', { id: 'catalogue-edit-product' }),
      route(paths.catalogue.scan, 'routes/scan.tsx', { id: 'catalogue-scan' }),
      route(paths.catalogue.reports, 'routes/reports.tsx', { id: 'catalogue-reports' }),
      route(paths.catalogue.locations, 'routes/locations.tsx', { id: 'catalogue-locations' }),
      route(paths.catalogue.location, 'routes/location.tsx', { id: 'catalogue-location' }),
      route(paths.catalogue.counts, 'routes/counts.tsx', { id: 'catalogue-counts' }),
      route(paths.catalogue.count, 'routes/count.tsx', { id: 'catalogue-count' }),
      route(paths.catalogue.suppliers, 'routes/suppliers.tsx', { id: 'catalogue-suppliers' }),
      route(paths.catalogue.purchaseOrders, 'routes/purchase-orders.tsx', {
        id: 'catalogue-purchase-orders',
      }),
      route(paths.catalogue.purchaseOrder, 'routes/purchase-order.tsx', {
        id: 'catalogue-purchase-order',
      }),
      route(paths.catalogue.settings.path, 'routes/catalogue-settings.tsx'),
      route(paths.activity.nested, 'routes/activity.tsx', { id: 'catalogue-activity' }),
    ]),
    route(paths.profile.edit.path, 'routes/profile-layout.tsx', [
      index('routes/profile.tsx'),
      route(paths.profile.changePassword.path, 'routes/change-password.tsx'),
      route(paths.profile.security.path, 'routes/profile-security.tsx'),
    ]),
    route('*', 'routes/not-found.tsx'),
  ]),
] satisfies RouteConfig;
