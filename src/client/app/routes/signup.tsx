import { SignupForm } from '@/features/auth/components/SignupForm.js';
import { SignedOutOnly } from '../components/SignedOutOnly.js';
import { WithQueries } from '../components/signed-in/WithQueries.js';

export default function Signup() {
  return (
    <SignedOutOnly>
      <WithQueries>
        <SignupForm />
      </WithQueries>
    </SignedOutOnly>
  );
}
