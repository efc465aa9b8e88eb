import { Mailbox } from '@/features/mailbox/components/Mailbox.js';
import { WithQueries } from '../components/signed-in/WithQueries.js';

export default function DevMailboxRoute() {
  return (
    <WithQueries>
      <Mailbox />
    </WithQueries>
  );
}
