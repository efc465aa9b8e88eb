import { useMutation } from '@tanstack/react-query';
import type { EmailOnlyInput } from '@shared/schemas/auth.js';
import { apiRequest } from '@/lib/api-client.js';
import { messageResponse } from '@/lib/lazy-schemas.js';

/** POST /auth/resend-confirmation {email} → {message}. */
const resendConfirmation = (body: EmailOnlyInput) =>
  apiRequest(messageResponse, { method: 'POST', url: '/auth/resend-confirmation', data: body });

export const useResendConfirmation = () => useMutation({ mutationFn: resendConfirmation });
