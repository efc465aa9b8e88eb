import { ResetPassword } from '@/features/auth/components/ResetPassword.js';
import { WithQueries } from '../components/signed-in/WithQueries.js';

export default function ResetPasswordRoute() {
  return (
    <WithQueries>
      <ResetPassword />
    </WithQueries>
  );
}
