import { LoginForm } from '@/features/auth/components/login/LoginForm.js';
import { SignedOutOnly } from '../components/SignedOutOnly.js';

export default function Login() {
  return (
    <SignedOutOnly>
      <LoginForm />
    </SignedOutOnly>
  );
}
