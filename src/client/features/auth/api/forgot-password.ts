import { useMutation } from '@tanstack/react-query';
import type { EmailOnlyInput } from '@shared/schemas/auth.js';
import { apiRequest } from '@/lib/api-client.js';
import { messageResponse } from '@/lib/lazy-schemas.js';

/** POST /auth/forgot-password {email} → {message}: a reset code is e-mailed. */
const forgotPassword = (body: EmailOnlyInput) =>
  apiRequest(messageResponse, { method: 'POST', url: '/auth/forgot-password', data: body });

export const useForgotPassword = () => useMutation({ mutationFn: forgotPassword });
