import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { apiRequest } from '@/lib/api-client.js';
import { messageResponse } from '@/lib/lazy-schemas.js';
import { paths } from '@/lib/paths.js';
import { type MutationConfig } from '@/lib/query/query-client.js';
import { dropSessionQueries, forgetSessionInBrowser } from './session.js';

/**
 * POST /auth/logout revokes the token on the server. A failed revoke
 * (offline, already expired) still signs the browser out: what matters to it is the local end.
 */
const logout = async () => {
  try {
    await apiRequest(messageResponse, { method: 'POST', url: '/auth/logout' });
  } catch {
    // The local sign-out below is what matters to this browser.
  }
};

/**
 * Logout: revoke the token, forget it and the offline copies, go to /auth/login, then drop the
 * user's cached data sets (lib/session/session.ts); then the screen's own onSuccess. The data sets
 * go only once the login screen shows: dropped earlier, the protected screen still showing would
 * send the user to /auth/login with a way back to itself.
 */
export function useLogout({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof logout> } = {}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { onSuccess, ...config } = mutationConfig ?? {};
  return useMutation({
    ...config,
    mutationFn: logout,
    onSuccess: async (data, variables, ...rest) => {
      forgetSessionInBrowser();
      await navigate(paths.auth.login.getHref(), { replace: true });
      dropSessionQueries(queryClient);
      await onSuccess?.(data, variables, ...rest);
    },
  });
}
