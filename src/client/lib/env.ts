const value = (raw: string | undefined, fallback: string) =>
  raw !== undefined && raw.trim() !== '' ? raw.trim() : fallback;

/** Build-time settings (Vite `VITE_*` variables), each with a default. */
export const env = {
  apiUrl: value(import.meta.env.VITE_API_URL, '/api'),
  authorName: value(import.meta.env.VITE_AUTHOR_NAME, 'The Stockroom team'),
  authorUrl: value(import.meta.env.VITE_AUTHOR_URL, 'https://github.com/'),
};
