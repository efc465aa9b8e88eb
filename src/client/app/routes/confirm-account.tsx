import { ConfirmAccount } from '@/features/auth/components/ConfirmAccount.js';
import { WithQueries } from '../components/signed-in/WithQueries.js';

export default function ConfirmAccountRoute() {
  return (
    <WithQueries>
      <ConfirmAccount />
    </WithQueries>
  );
}
