import { lazy, Suspense, type ComponentType } from 'react';
import { matchPath, Navigate, Route, Routes, useLocation } from 'react-router';
import { PageSpinner } from '@/components/ui/Spinner.js';
import { loadApiClient } from '@/lib/api-client.js';
import { getToken } from '@/lib/auth/token.js';
import { importWithRetry } from '@/lib/lazy-import.js';
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
  const area = pathname.startsWith('/auth') ? 'auth' : pathname.startsWith('/dev') ? 'dev' : 'app';
  return (
    <Suspense key={area} fallback={<PageSpinner />}>
      <Routes>
        <Route path="auth" element={<AuthLayout />}>
          <Route index element={<Navigate to="/auth/login" replace />} />
          <Route
            path="login"
            element={
              <SignedOutOnly>
                <LoginForm />
              </SignedOutOnly>
            }
          />
          <Route
            path="signup"
            element={
              <SignedOutOnly>
                <SignupForm />
              </SignedOutOnly>
            }
          />
          <Route path="confirm-account" element={<ConfirmAccount />} />
          <Route path="new-code" element={<NewCodeForm />} />
          <Route path="forgot-password" element={<ForgotPasswordForm />} />
          <Route path="reset-password" element={<ResetPassword />} />
        </Route>
        <Route path="dev/mailbox" element={<Mailbox />} />
        <Route path="/" element={<MainLayout />}>
          <Route index element={<ProductsPage />} />
          <Route path="new/product" element={<CreateProduct />} />
          <Route path="add/product" element={<CreateProduct />} />
          <Route path="edit/product/:productId" element={<EditProduct />} />
          <Route path="details/product/:productId" element={<ProductDetails />} />
          <Route path="profile" element={<ProfileLayout />}>
            <Route index element={<ProfileForm />} />
            <Route path="new-password" element={<ChangePasswordForm />} />
          </Route>
          <Route path="*" element={<NotFound />} />
        </Route>
      </Routes>
    </Suspense>
  );
}

type Screen = { preload: () => Promise<unknown> };
type PathParams = Record<string, string | undefined>;

/**
 * The data a signed-in screen asks for first, fetched together with the current user rather than
 * after it (the protected layout renders its screen once the user is known).
 */
const FIRST_DATA: Record<string, (params: PathParams, search: URLSearchParams) => Promise<void>> = {
  '/': async (_, search) => {
    const { listParamsOf, productsQueryOptions } =
      await import('@/features/products/api/get-products.js');
    await queryClient.prefetchInfiniteQuery(productsQueryOptions(listParamsOf(search)));
  },
  '/details/product/:productId': async ({ productId = '' }) => {
    const { productQueryOptions } = await import('@/features/products/api/get-product.js');
    await queryClient.prefetchQuery(productQueryOptions(productId));
  },
};

/** The screens a first visit to each path shows, layouts first. */
const SCREENS_OF_PATH: [pattern: string, screens: Screen[]][] = [
  ['/auth/login', [AuthLayout, LoginForm]],
  ['/auth/signup', [AuthLayout, SignupForm]],
  ['/auth/confirm-account', [AuthLayout, ConfirmAccount]],
  ['/auth/new-code', [AuthLayout, NewCodeForm]],
  ['/auth/forgot-password', [AuthLayout, ForgotPasswordForm]],
  ['/auth/reset-password', [AuthLayout, ResetPassword]],
  ['/', [MainLayout, ProductsPage]],
  ['/new/product', [MainLayout, CreateProduct]],
  ['/add/product', [MainLayout, CreateProduct]],
  ['/edit/product/:productId', [MainLayout, EditProduct]],
  ['/details/product/:productId', [MainLayout, ProductDetails]],
  ['/profile', [MainLayout, ProfileLayout, ProfileForm]],
  ['/profile/new-password', [MainLayout, ProfileLayout, ChangePasswordForm]],
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
