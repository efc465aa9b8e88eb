import { SignupForm } from '@/features/auth/components/SignupForm.js';
import { SignedOutOnly } from '../components/SignedOutOnly.js';

export default function Signup() {
  return (
    <SignedOutOnly>
      <SignupForm />
    </SignedOutOnly>
  );
}
