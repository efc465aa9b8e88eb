import { Link } from 'react-router';
import { paths } from '@/lib/paths.js';
import { useInvitations } from '../../api/get-invitations.js';

/** In the header while invitations wait for the user: how many, leading to /invitations. */
export function InvitationsLink() {
  const count = useInvitations().data?.length ?? 0;
  if (count === 0) return null;
  const label = count === 1 ? '1 invitation waiting' : `${count} invitations waiting`;
  return (
    <Link
      to={paths.invitations.getHref()}
      aria-label={label}
      title={label}
      className="flex shrink-0 items-center gap-1 rounded-md px-2 py-1 text-sm font-semibold text-white hover:bg-gray-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
    >
      <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="size-5">
        <path d="M3 4a2 2 0 0 0-2 2v1.16l9 4.5 9-4.5V6a2 2 0 0 0-2-2H3Z" />
        <path d="m19 8.84-9 4.5-9-4.5V14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V8.84Z" />
      </svg>
      <span className="rounded-full bg-indigo-500 px-1.5 text-xs">{count}</span>
    </Link>
  );
}
