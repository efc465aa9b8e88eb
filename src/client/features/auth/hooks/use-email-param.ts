import { useSearchParams } from 'react-router';

/** Enough to tell an address from garbage; the server validates what it receives. */
export const looksLikeEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);

/** The e-mail the mail links carry as ?email= (contract section 4), when it looks like one. */
export function useEmailParam(): string | undefined {
  const [params] = useSearchParams();
  const email = (params.get('email') ?? '').trim().toLowerCase();
  return looksLikeEmail(email) ? email : undefined;
}

/** A path of an auth screen, carrying the e-mail along when there is one. */
export const withEmail = (path: string, email: string | undefined) =>
  email ? `${path}?${new URLSearchParams({ email }).toString()}` : path;
