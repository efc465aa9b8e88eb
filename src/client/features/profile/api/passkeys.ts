import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { messageSchema } from '@shared/schemas/common.js';
import {
  passkeyAddedSchema,
  passkeyListSchema,
  registrationOptionsSchema,
} from '@shared/schemas/passkeys.js';
import { apiRequest } from '@/lib/api-client.js';
import { queryKeys } from '@/lib/query/query-client.js';
import { loadWebAuthn, promptDismissed } from '@/lib/webauthn.js';

/** What a closed or timed-out browser prompt reads as: nothing went wrong on our side. */
const PASSKEY_NOT_MADE = 'No passkey was made: try again when you are ready';

const passkeysQuery = queryOptions({
  queryKey: queryKeys.passkeys,
  queryFn: async () => (await apiRequest(passkeyListSchema, { url: '/auth/passkeys' })).passkeys,
  retry: 1,
});

/** GET /auth/passkeys → {passkeys}. */
export const usePasskeys = () => useQuery(passkeysQuery);

/**
 * Registration options, the browser's prompt (the device makes the passkey and checks its owner),
 * then POST /auth/passkeys/registration → {message, passkey}.
 */
async function addPasskey(name: string | undefined) {
  const [{ startRegistration }, { challengeId, options }] = await Promise.all([
    loadWebAuthn(),
    apiRequest(registrationOptionsSchema, {
      method: 'POST',
      url: '/auth/passkeys/registration/options',
    }),
  ]);
  let response;
  try {
    response = await startRegistration({ optionsJSON: options as never });
  } catch (error) {
    if (promptDismissed(error)) throw new Error(PASSKEY_NOT_MADE);
    throw error;
  }
  return apiRequest(passkeyAddedSchema, {
    method: 'POST',
    url: '/auth/passkeys/registration',
    data: { challengeId, response, ...(name ? { name } : {}) },
  });
}

function usePasskeyMutation<Variables, Result>(request: (variables: Variables) => Promise<Result>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.passkeys }),
        queryClient.invalidateQueries({ queryKey: queryKeys.twoFactor }),
      ]),
  });
}

export const useAddPasskey = () => usePasskeyMutation(addPasskey);

/** DELETE /auth/passkeys/{id} {password} → {message}. */
export const useRemovePasskey = () =>
  usePasskeyMutation(({ id, password }: { id: string; password: string }) =>
    apiRequest(messageSchema, {
      method: 'DELETE',
      url: `/auth/passkeys/${encodeURIComponent(id)}`,
      data: { password },
    }),
  );
