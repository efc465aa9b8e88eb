import axios from 'axios';
import { getToken } from './auth/token.js';
import { env } from './env.js';
import { notifyUnauthorized } from './unauthorized.js';

/** The one axios instance: base '/api' (or VITE_API_URL), no timeout, bearer token on every request. */
export const api = axios.create({ baseURL: env.apiUrl, timeout: 0 });

api.interceptors.request.use((config) => {
  const token = getToken();
  if (token) config.headers.set('Authorization', `Bearer ${token}`);
  return config;
});

api.interceptors.response.use(undefined, (error: unknown) => {
  if (
    axios.isAxiosError(error) &&
    error.response?.status === 401 &&
    error.config?.headers.has('Authorization')
  ) {
    notifyUnauthorized();
  }
  return Promise.reject(error);
});
