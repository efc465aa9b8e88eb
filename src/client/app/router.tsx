import { lazy, Suspense, type ComponentType } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { PageSpinner } from '@/components/ui/Spinner.js';

/** A screen in its own chunk, loaded when its route is first visited. */
function screen<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}

const AuthLayout = screen(() => import('./layouts/AuthLayout.js'), 'AuthLayout');
const MainLayout = screen(() => import('./layouts/MainLayout.js'), 'MainLayout');
const ProfileLayout = screen(() => import('./layouts/ProfileLayout.js'), 'ProfileLayout');
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
  return (
    <Suspense fallback={<PageSpinner />}>
      <Routes>
        <Route path="auth" element={<AuthLayout />}>
          <Route index element={<Navigate to="/auth/login" replace />} />
          <Route path="login" element={<LoginForm />} />
          <Route path="signup" element={<SignupForm />} />
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
