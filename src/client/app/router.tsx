import { lazy, Suspense, type ComponentType } from 'react';
import { matchPath, Navigate, Route, Routes, useLocation } from 'react-router';
import { PageSpinner } from '@/components/ui/Spinner.js';
import { loadApiClient } from '@/lib/api-client.js';
import { getToken } from '@/lib/auth/token.js';
import { importWithRetry } from '@/lib/lazy-import.js';
import { paths } from '@/lib/paths.js';
import { queryClient } from '@/lib/query-client.js';

/**
 * A screen in its own chunk, loaded when its route is first visited, or earlier by `preload` (the
 * module loads once either way); asked for twice before the route's error boundary explains the
 * failure (app/components/RouteError.tsx). A failed preload says nothing: the route asks again.
 */
function screen<K extends string, P extends object = object>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
) {
  const Screen = lazy(async () => ({ default: (await importWithRetry(load))[name] }));
  return Object.assign(Screen, {
    preload: () => importWithRetry(load).catch(() => undefined),
  });
}

const AuthLayout = screen(() => import('./layouts/AuthLayout.js'), 'AuthLayout');
const MainLayout = screen(() => import('./layouts/MainLayout.js'), 'MainLayout');
const ProfileLayout = screen(() => import('./layouts/ProfileLayout.js'), 'ProfileLayout');
// Its own chunk too: the check of a stored token needs react-query's useQuery and, when there is
// a token, zod; neither belongs in the entry chunk.
const SignedOutOnly = screen(() => import('./components/SignedOutOnly.js'), 'SignedOutOnly');
const NotFound = screen(() => import('./components/NotFound.js'), 'NotFound');

const LoginForm = screen(() => import('@/features/auth/components/LoginForm.js'), 'LoginForm');
const SignupForm = screen(() => import('@/features/auth/components/SignupForm.js'), 'SignupForm');
const ConfirmAccount = screen(
  () => import('@/features/auth/components/ConfirmAccount.js'),
  'ConfirmAccount',
);
const NewCodeForm = screen(
  () => import('@/features/auth/components/NewCodeForm.js'),
  'NewCodeForm',
);
const ForgotPasswordForm = screen(
  () => import('@/features/auth/components/ForgotPasswordForm.js'),
  'ForgotPasswordForm',
);
const ResetPassword = screen(
  () => import('@/features/auth/components/ResetPassword.js'),
  'ResetPassword',
);

const ProductsPage = screen(
  () => import('@/features/products/components/ProductsPage.js'),
  'ProductsPage',
);
const CreateProduct = screen(
  () => import('@/features/products/components/CreateProduct.js'),
  'CreateProduct',
);
const EditProduct = screen(
  () => import('@/features/products/components/EditProduct.js'),
  'EditProduct',
);
const ProductDetails = screen(
  () => import('@/features/products/components/ProductDetails.js'),
  'ProductDetails',
);
const ImportProducts = screen(
  () => import('@/features/products/components/ImportProducts.js'),
  'ImportProducts',
);

const ProfileForm = screen(
  () => import('@/features/profile/components/ProfileForm.js'),
  'ProfileForm',
);
const ChangePasswordForm = screen(
  () => import('@/features/profile/components/ChangePasswordForm.js'),
  'ChangePasswordForm',
);

const Mailbox = screen(() => import('@/features/mailbox/components/Mailbox.js'), 'Mailbox');

/**
 * The route table of the spec. Every screen and layout is its own chunk: the auth screens
 * download neither the products screens, nor the signed-in layout, nor SweetAlert2.
 */
export function AppRoutes() {
  // One boundary per layout (see ScreenSuspense): a layout still loading is dropped on leaving it.
  const { pathname } = useLocation();
  const area = pathname.startsWith(paths.auth.root.path)
    ? 'auth'
    : pathname.startsWith(paths.devMailbox.path)
      ? 'dev'
      : 'app';
  return (
    <Suspense key={area} fallback={<PageSpinner />}>
      <Routes>
        <Route path={paths.auth.root.path} element={<AuthLayout />}>
          <Route index element={<Navigate to={paths.auth.login.getHref()} replace />} />
          <Route
            path={paths.auth.login.path}
            element={
              <SignedOutOnly>
                <LoginForm />
              </SignedOutOnly>
            }
          />
          <Route
            path={paths.auth.signup.path}
            element={
              <SignedOutOnly>
                <SignupForm />
              </SignedOutOnly>
            }
          />
          <Route path={paths.auth.confirmAccount.path} element={<ConfirmAccount />} />
          <Route path={paths.auth.newCode.path} element={<NewCodeForm />} />
          <Route path={paths.auth.forgotPassword.path} element={<ForgotPasswordForm />} />
          <Route path={paths.auth.resetPassword.path} element={<ResetPassword />} />
        </Route>
        <Route path={paths.devMailbox.path} element={<Mailbox />} />
        <Route path={paths.products.list.path} element={<MainLayout />}>
          <Route index element={<ProductsPage />} />
          <Route path={paths.products.create.path} element={<CreateProduct />} />
          <Route path={paths.products.add.path} element={<CreateProduct />} />
          <Route path={paths.products.edit.path} element={<EditProduct />} />
          <Route path={paths.products.details.path} element={<ProductDetails />} />
          <Route path={paths.products.import.path} element={<ImportProducts />} />
          <Route path={paths.profile.edit.path} element={<ProfileLayout />}>
            <Route index element={<ProfileForm />} />
            <Route path={paths.profile.changePassword.path} element={<ChangePasswordForm />} />
          </Route>
          <Route path="*" element={<NotFound />} />
        </Route>
      </Routes>
    </Suspense>
  );
}

type Screen = { preload: () => Promise<unknown> };

/** The list's table view, its own chunk, when the first URL asks for it on a wide screen. */
async function preloadTable() {
  const { loadProductTable, TABLE_MEDIA_QUERY } =
    await import('@/features/products/components/lazy-table.js');
  if (window.matchMedia(TABLE_MEDIA_QUERY).matches) await loadProductTable();
}
type PathParams = Record<string, string | undefined>;

/**
 * The data a signed-in screen asks for first, fetched together with the current user rather than
 * after it (the protected layout renders its screen once the user is known).
 */
const FIRST_DATA: Record<string, (params: PathParams, search: URLSearchParams) => Promise<void>> = {
  [paths.products.list.path]: async (_, search) => {
    const [{ listParamsOf, productsQueryOptions }, { productsSummaryQueryOptions }] =
      await Promise.all([
        import('@/features/products/api/get-products.js'),
        import('@/features/products/api/get-products-summary.js'),
      ]);
    const params = listParamsOf(search);
    if (search.get('view') === 'table') preloadTable().catch(() => undefined);
    await Promise.all([
      queryClient.prefetchInfiniteQuery(productsQueryOptions(params)),
      queryClient.prefetchQuery(productsSummaryQueryOptions(params)),
    ]);
  },
  [paths.products.details.path]: async ({ productId = '' }) => {
    const [{ productQueryOptions }, { movementsQueryOptions }] = await Promise.all([
      import('@/features/products/api/get-product.js'),
      import('@/features/products/api/get-movements.js'),
    ]);
    await Promise.all([
      queryClient.prefetchQuery(productQueryOptions(productId)),
      queryClient.prefetchQuery(movementsQueryOptions(productId)),
    ]);
  },
};

/** The screens a first visit to each path shows, layouts first. */
const SCREENS_OF_PATH: [pattern: string, screens: Screen[]][] = [
  [paths.auth.login.path, [AuthLayout, LoginForm]],
  [paths.auth.signup.path, [AuthLayout, SignupForm]],
  [paths.auth.confirmAccount.path, [AuthLayout, ConfirmAccount]],
  [paths.auth.newCode.path, [AuthLayout, NewCodeForm]],
  [paths.auth.forgotPassword.path, [AuthLayout, ForgotPasswordForm]],
  [paths.auth.resetPassword.path, [AuthLayout, ResetPassword]],
  [paths.products.list.path, [MainLayout, ProductsPage]],
  [paths.products.create.path, [MainLayout, CreateProduct]],
  [paths.products.add.path, [MainLayout, CreateProduct]],
  [paths.products.edit.path, [MainLayout, EditProduct]],
  [paths.products.details.path, [MainLayout, ProductDetails]],
  [paths.products.import.path, [MainLayout, ImportProducts]],
  [paths.profile.edit.path, [MainLayout, ProfileLayout, ProfileForm]],
  [paths.profile.changePassword.path, [MainLayout, ProfileLayout, ChangePasswordForm]],
];

/**
 * Fetches at start-up, side by side, the chunks the first screen needs. Left to the routes, each
 * waits for the one before (the layout's chunk, then the layout's first request, then the
 * screen's chunk), a round trip apiece. A signed-in screen also wants the HTTP client for the
 * current user, its first request; without a session the protected layout sends the visitor to
 * the login screen, so that is what is fetched.
 */
export function preloadScreens({ pathname, search }: { pathname: string; search: string }) {
  for (const [pattern, screens] of SCREENS_OF_PATH) {
    const match = matchPath(pattern, pathname);
    if (match) return preload(pattern, screens, match.params, new URLSearchParams(search));
  }
}

function preload(pattern: string, screens: Screen[], params: PathParams, search: URLSearchParams) {
  if (screens[0] !== MainLayout) {
    screens.forEach((screen) => void screen.preload());
  } else if (getToken()) {
    screens.forEach((screen) => void screen.preload());
    // Only a head start: whatever fails here is asked for again, and explained, where it is used.
    loadApiClient().catch(() => undefined);
    FIRST_DATA[pattern]?.(params, search).catch(() => undefined);
  } else {
    [MainLayout, AuthLayout, LoginForm].forEach((screen) => void screen.preload());
  }
}
