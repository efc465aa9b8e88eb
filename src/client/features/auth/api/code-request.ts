import type { MutationConfig } from '@/lib/query/query-client.js';
import { useMutationHook } from '@/lib/query/mutation-hook.js';
import { noteCodeRequest, type CodePurpose } from '../hooks/use-resend-wait.js';

/**
 * A request that has a code e-mailed (or held back by the mail budget): once it is answered, the
 * wait before asking again starts (hooks/use-resend-wait.ts); then the screen's own onSuccess.
 */
export function useCodeRequest<Body extends { email: string }>(
  request: (body: Body) => Promise<{ message: string }>,
  purpose: CodePurpose,
  mutationConfig?: MutationConfig<typeof request>,
) {
  return useMutationHook(request, mutationConfig, (_, { email }) =>
    noteCodeRequest(purpose, email),
  );
}
