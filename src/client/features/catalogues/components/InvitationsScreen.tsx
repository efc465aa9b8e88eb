import { useNavigate } from 'react-router';
import { ROLE_DESCRIPTIONS, ROLE_LABELS } from '@shared/catalogue-roles.js';
import type { ReceivedInvitation } from '@shared/schemas/catalogues.js';
import { Button } from '@/components/ui/Button.js';
import { Card } from '@/components/ui/Card.js';
import { ScreenHeading } from '@/components/ui/ScreenHeading.js';
import { PageSpinner } from '@/components/ui/Spinner.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { formatDateTime } from '@/lib/format.js';
import { notifyError, notifySuccess } from '@/lib/notify.js';
import { paths } from '@/lib/paths.js';
import { useAcceptInvitation } from '../api/accept-invitation.js';
import { useDeclineInvitation } from '../api/decline-invitation.js';
import { useInvitations } from '../api/get-invitations.js';

/**
 * `/invitations`: the invitations waiting for the user (the invitation mail links here): who
 * invited them to which catalogue, with which role, until when. Accepting opens the catalogue.
 */
export function InvitationsScreen() {
  const invitations = useInvitations();
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <ScreenHeading
        title="Invitations"
        description="Catalogues others have invited you to share."
      />
      {invitations.isPending ? (
        <PageSpinner label="Loading your invitations..." />
      ) : invitations.isError && !invitations.data ? (
        <p role="alert" className="py-8 text-center font-medium text-red-700">
          {getErrorMessage(invitations.error)}
        </p>
      ) : invitations.data.length === 0 ? (
        <Card className="px-6 py-10 text-center">
          <p className="text-gray-600">No invitations are waiting for you.</p>
        </Card>
      ) : (
        <ul className="space-y-4">
          {invitations.data.map((invitation) => (
            <InvitationCard key={invitation.id} invitation={invitation} />
          ))}
        </ul>
      )}
    </div>
  );
}

function InvitationCard({ invitation }: { invitation: ReceivedInvitation }) {
  const navigate = useNavigate();
  const accept = useAcceptInvitation({
    mutationConfig: {
      onSuccess: async ({ message, catalogue }) => {
        notifySuccess(message);
        await navigate(paths.products.list.getHref(catalogue.id));
      },
      onError: notifyError,
    },
  });
  const decline = useDeclineInvitation({
    mutationConfig: { onSuccess: ({ message }) => notifySuccess(message), onError: notifyError },
  });
  const busy = accept.isPending || decline.isPending;
  const headingId = `invitation-${invitation.id}`;
  return (
    <li>
      <Card className="p-4 sm:p-6">
        <article aria-labelledby={headingId} className="space-y-3">
          <h2 id={headingId} className="text-lg font-semibold wrap-anywhere text-gray-900">
            {invitation.catalogue.name}
          </h2>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-gray-600">Invited by</dt>
            <dd className="text-gray-900 wrap-anywhere">{invitation.invitedBy.name}</dd>
            <dt className="text-gray-600">Role</dt>
            <dd className="text-gray-900">
              <span className="font-semibold">{ROLE_LABELS[invitation.role]}</span>:{' '}
              {ROLE_DESCRIPTIONS[invitation.role]}
            </dd>
            <dt className="text-gray-600">Expires</dt>
            <dd className="text-gray-900">{formatDateTime(invitation.expiresAt)}</dd>
          </dl>
          <div className="flex flex-wrap gap-3 pt-1">
            <Button
              busy={accept.isPending}
              disabled={busy}
              busyLabel="Joining..."
              aria-label={`Accept the invitation to ${invitation.catalogue.name}`}
              onClick={() => accept.mutate(invitation.id)}
            >
              Accept
            </Button>
            <Button
              variant="secondary"
              busy={decline.isPending}
              disabled={busy}
              aria-label={`Decline the invitation to ${invitation.catalogue.name}`}
              onClick={() => decline.mutate(invitation.id)}
            >
              Decline
            </Button>
          </div>
        </article>
      </Card>
    </li>
  );
}
