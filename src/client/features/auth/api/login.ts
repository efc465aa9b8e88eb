import { useMutation } from '@tanstack/react-query';
import type { LoginInput } from '@shared/schemas/auth.js';
import { apiRequest } from '@/lib/api-client.js';
import { tokenResponse } from '@/lib/lazy-schemas.js';

/** POST /auth/login {email, password} → {message, token}. */
const login = (body: LoginInput) =>
  apiRequest(tokenResponse, { method: 'POST', url: '/auth/login', data: body });

export const useLogin = () => useMutation({ mutationFn: login });
