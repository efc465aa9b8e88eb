import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '@shared/schemas/auth.js';
import { apiRequest } from '@/lib/api-client.js';
import { authSchema } from '@/lib/lazy-schemas.js';
import { queryKeys } from '@/lib/query/query-client.js';
import { bearer, getToken, noteTokenOwner } from '../auth/token.js';

class NotSignedInError extends Error {
  constructor() {
    super('You need to log in to continue');
  }
}

/**
 * GET /auth/user. Without a stored token there is no session to ask about. The answer says whose
 * the token is (lib/auth/token.ts): asked with that token, whatever another tab stores meanwhile.
 */
async function getUser(): Promise<User> {
  const token = getToken();
  if (!token) throw new NotSignedInError();
  const { user } = await apiRequest(authSchema('userResponseSchema'), {
    url: '/auth/user',
    headers: bearer(token),
  });
  noteTokenOwner(token, user.id);
  return user;
}

/** The cached 'user': never retried, never refetched on window focus. */
export const userQueryOptions = queryOptions({
  queryKey: queryKeys.user,
  queryFn: getUser,
  retry: false,
  refetchOnWindowFocus: false,
  staleTime: Infinity,
});

export const useUser = () => useQuery(userQueryOptions);
