import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { profileSchema } from '@shared/schemas/auth.js';
import { messageSchema } from '@shared/schemas/common.js';
import { apiRequest } from '@/lib/api-client.js';

type ProfileBody = z.output<typeof profileSchema>;

/** PATCH /auth/profile {name, email} → {message}. */
const updateProfile = (body: ProfileBody) =>
  apiRequest(messageSchema, { method: 'PATCH', url: '/auth/profile', data: body });

export const useUpdateProfile = () => useMutation({ mutationFn: updateProfile });
