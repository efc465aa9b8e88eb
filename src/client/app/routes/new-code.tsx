import { NewCodeForm } from '@/features/auth/components/NewCodeForm.js';
import { WithQueries } from '../components/signed-in/WithQueries.js';

export default function NewCodeFormRoute() {
  return (
    <WithQueries>
      <NewCodeForm />
    </WithQueries>
  );
}
