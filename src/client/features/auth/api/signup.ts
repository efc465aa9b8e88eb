import { useMutation } from '@tanstack/react-query';
import type { SignupInput } from '@shared/schemas/auth.js';
import { apiRequest } from '@/lib/api-client.js';
import { messageResponse } from '@/lib/lazy-schemas.js';

/** POST /auth/signup → {message}: a code is e-mailed to confirm the account. */
const signup = (body: SignupInput) =>
  apiRequest(messageResponse, { method: 'POST', url: '/auth/signup', data: body });

export const useSignup = () => useMutation({ mutationFn: signup });
