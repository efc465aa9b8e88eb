const value = (raw: string | undefined, fallback: string) =>
  raw !== undefined && raw.trim() !== '' ? raw.trim() : fallback;

/** Build-time settings (Vite `VITE_*` variables), each with a default. */
export const env = {
  apiUrl: value(import.meta.env.VITE_API_URL, '/api'),
  // Read after 'Created by'. The project has no author's profile page of its own: GitHub's front
  // page stands in until a deployment sets its own (docs/operations.md, .env.example).
  authorName: value(import.meta.env.VITE_AUTHOR_NAME, 'the Stockroom team'),
  authorUrl: value(import.meta.env.VITE_AUTHOR_URL, 'https://github.com/'),
};
