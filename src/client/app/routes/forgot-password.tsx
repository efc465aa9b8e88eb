import { ForgotPasswordForm } from '@/features/auth/components/ForgotPasswordForm.js';
import { WithQueries } from '../components/signed-in/WithQueries.js';

export default function ForgotPasswordFormRoute() {
  return (
    <WithQueries>
      <ForgotPasswordForm />
    </WithQueries>
  );
}
