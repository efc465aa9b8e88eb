import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { DeleteAccountInput } from '@shared/schemas/account-data.js';
import { messageSchema } from '@shared/schemas/common.js';
import { apiRequest } from '@/lib/api-client.js';
import { apiDownload } from '@/lib/api-download.js';
import { paths } from '@/lib/paths.js';
import { dropSessionQueries, forgetSessionInBrowser } from '@/lib/session/session.js';

/** GET /auth/export → everything of the account as a ZIP, and the name the server gives it. */
export const useExportAccount = () =>
  useMutation({ mutationFn: () => apiDownload({ url: '/auth/export' }, 'stockroom.zip') });

/**
 * DELETE /auth/user {password, code?} → {message}. Once deleted the browser forgets the session
 * as a logout does, and goes to the login screen.
 */
export function useDeleteAccount() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: DeleteAccountInput) =>
      apiRequest(messageSchema, { method: 'DELETE', url: '/auth/user', data: input }),
    onSuccess: async () => {
      forgetSessionInBrowser();
      await navigate(paths.auth.login.getHref(), { replace: true });
      dropSessionQueries(queryClient);
    },
  });
}
