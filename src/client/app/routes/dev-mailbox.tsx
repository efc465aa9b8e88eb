import { Mailbox } from '@/features/mailbox/components/Mailbox.js';
import { WithQueries } from '../components/WithQueries.js';

export default function DevMailboxRoute() {
  return (
    <WithQueries>
      <Mailbox />
    </WithQueries>
  );
}
