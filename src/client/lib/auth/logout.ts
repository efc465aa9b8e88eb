import { useNavigate } from 'react-router';
import { messageSchema } from '@shared/schemas/common.js';
import { apiRequest } from '@/lib/api-client.js';
import { endSession } from './session.js';

/** POST /auth/logout revokes the token on the server (contract section 4). */
const logout = () => apiRequest(messageSchema, { method: 'POST', url: '/auth/logout' });

/**
 * Logout (spec section 4): revoke the token, remove it, drop the cached 'user' and 'products', and
 * go to /auth/login. A failed revoke (offline, already expired) still signs the browser out.
 */
export function useLogout() {
  const navigate = useNavigate();
  return async () => {
    try {
      await logout();
    } catch {
      // The local sign-out below is what matters to this browser.
    }
    await navigate('/auth/login', { replace: true });
    endSession();
  };
}
