import { useSearchParams } from 'react-router';

/** Enough to tell an address from garbage; the server validates what it receives. */
export const looksLikeEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);

/** The e-mail the mail links carry as ?email=, when it looks like one. */
export function useEmailParam(): string | undefined {
  const [params] = useSearchParams();
  const email = (params.get('email') ?? '').trim().toLowerCase();
  return looksLikeEmail(email) ? email : undefined;
}
