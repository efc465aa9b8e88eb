import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { messageSchema } from '@shared/schemas/common.js';
import {
  recoveryCodesResponseSchema,
  totpSetupSchema,
  twoFactorStatusSchema,
  type TotpDisableInput,
} from '@shared/schemas/two-factor.js';
import { apiRequest } from '@/lib/api-client.js';
import { queryKeys } from '@/lib/query/query-client.js';

/** GET /auth/mfa → {totp, recoveryCodesLeft}. */
const twoFactorQuery = queryOptions({
  queryKey: queryKeys.twoFactor,
  queryFn: () => apiRequest(twoFactorStatusSchema, { url: '/auth/mfa' }),
  retry: 1,
});

export const useTwoFactorStatus = () => useQuery(twoFactorQuery);

/** After a change of two-factor sign-in: the status is read again. */
function useTwoFactorMutation<Variables, Result>(
  request: (variables: Variables) => Promise<Result>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.twoFactor }),
  });
}

/** POST /auth/mfa/totp → {secret, otpauthUrl}: a secret waiting for its first code. */
export const useStartTotp = () =>
  useMutation({
    mutationFn: () => apiRequest(totpSetupSchema, { method: 'POST', url: '/auth/mfa/totp' }),
  });

/** POST /auth/mfa/totp/confirm {code} → {message, recoveryCodes}. */
export const useConfirmTotp = () =>
  useTwoFactorMutation((code: string) =>
    apiRequest(recoveryCodesResponseSchema, {
      method: 'POST',
      url: '/auth/mfa/totp/confirm',
      data: { code },
    }),
  );

/** DELETE /auth/mfa/totp {password, code} → {message}. */
export const useTurnOffTotp = () =>
  useTwoFactorMutation((body: TotpDisableInput) =>
    apiRequest(messageSchema, { method: 'DELETE', url: '/auth/mfa/totp', data: body }),
  );

/** POST /auth/mfa/recovery-codes {code} → {message, recoveryCodes}. */
export const useRenewRecoveryCodes = () =>
  useTwoFactorMutation((code: string) =>
    apiRequest(recoveryCodesResponseSchema, {
      method: 'POST',
      url: '/auth/mfa/recovery-codes',
      data: { code },
    }),
  );
