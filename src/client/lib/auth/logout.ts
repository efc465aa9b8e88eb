import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { apiRequest } from '@/lib/api-client.js';
import { messageResponse } from '@/lib/lazy-schemas.js';
import { paths } from '@/lib/paths.js';
import { type MutationConfig } from '@/lib/query-client.js';
import { endSession } from './session.js';

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
 * Logout: revoke the token, go to /auth/login, then end the session (the token
 * and the user's cached data sets go, lib/auth/session.ts); then the screen's own onSuccess.
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
      await navigate(paths.auth.login.getHref(), { replace: true });
      endSession(queryClient);
      await onSuccess?.(data, variables, ...rest);
    },
  });
}
