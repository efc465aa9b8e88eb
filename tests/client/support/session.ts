import type { QueryClient } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import type { User } from '@shared/schemas/auth.js';
import { queryClient } from '@/lib/query/query-client.js';
import { userQueryOptions } from '@/lib/session/get-user.js';
import { server } from './server.js';

/** Every token a test signed in with, and whose it is. */
const accounts = new Map<string, User>();

/** GET /api/auth/user as the server answers it: the user of the request's token, else a 401. */
function answerUsers() {
  server.use(
    http.get('/api/auth/user', ({ request }) => {
      const token = request.headers.get('authorization')?.replace(/^Bearer /, '');
      const user = token === undefined ? undefined : accounts.get(token);
      return user
        ? HttpResponse.json({ user })
        : HttpResponse.json({ message: 'You need to log in to continue' }, { status: 401 });
    }),
  );
}

/** The server knows `token` as `user`'s (a login somewhere). */
export const tokenFor = (user: User, token: string) => {
  accounts.set(token, user);
  answerUsers();
  return token;
};

/**
 * Signed in as the app signs in: the token stored, then the current user read with it (GET
 * /api/auth/user), into the app's query client unless another is given (another tab's).
 */
export async function signInAs(user: User, token = 'token-1', client: QueryClient = queryClient) {
  localStorage.setItem('AccessToken', tokenFor(user, token));
  return client.fetchQuery({ ...userQueryOptions, staleTime: 0 });
}
