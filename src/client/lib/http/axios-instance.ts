import axios from 'axios';
import { getToken } from '../auth/token.js';
import { env } from '../env.js';
import { notifyUnauthorized } from '../unauthorized.js';
import { notePosition } from './live-position.js';

/**
 * The one axios instance: base '/api' (or VITE_API_URL), no timeout, the stored bearer token on
 * every request that does not name its own (one that must go as a given user's: the offline
 * queue's, the read of whose token it is).
 */
export const api = axios.create({ baseURL: env.apiUrl, timeout: 0 });

api.interceptors.request.use((config) => {
  const token = getToken();
  if (token && !config.headers.has('Authorization')) {
    config.headers.set('Authorization', `Bearer ${token}`);
  }
  return config;
});

api.interceptors.response.use(
  (response) => {
    notePosition(response.headers['live-event-id']);
    return response;
  },
  (error: unknown) => {
    const sent = axios.isAxiosError(error) ? error.config?.headers.get('Authorization') : undefined;
    if (axios.isAxiosError(error) && error.response?.status === 401 && typeof sent === 'string') {
      notifyUnauthorized(sent.replace(/^Bearer /, ''));
    }
    return Promise.reject(error);
  },
);
