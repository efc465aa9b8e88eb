import {
  ASSIGNABLE_ROLES,
  can,
  ROLE_LABELS,
  type AssignableRole,
} from '@shared/catalogue-roles.js';
import type { Catalogue, Member } from '@shared/schemas/catalogues.js';
import { ListCard } from '@/components/ui/Card.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { useUser } from '@/lib/session/get-user.js';
import { formatDateTime } from '@/lib/format.js';
import { notifyError, notifySuccess } from '@/lib/notify.js';
import { useChangeMemberRole } from '../api/change-member-role.js';
import { useMembers } from '../api/get-members.js';
import { useRemoveMember } from '../api/remove-member.js';
import { confirmAction } from '@/components/dialogs/confirm-action.js';
import { RoleBadge } from './RoleBadge.js';

const selectClasses =
  'rounded-lg border-0 py-1.5 pr-8 pl-3 text-sm text-gray-900 ring-1 ring-gray-300 ring-inset focus:ring-2 focus:ring-indigo-600';

/**
 * Every member with their role, the owner first and marked. Admins change the others' roles
 * (never the owner's) and remove them; everyone else sees the list.
 */
export function MembersSection({ catalogue }: { catalogue: Catalogue }) {
  const members = useMembers(catalogue.id);
  const me = useUser().data?.id;
  const manage = can(catalogue.role, 'manageMembers');
  return (
    <ListCard id="catalogue-members" title="Members">
      {members.isPending ? (
        <p className="px-6 py-6 text-sm text-gray-600">Loading...</p>
      ) : members.isError && !members.data ? (
        <p role="alert" className="px-6 py-6 text-sm font-medium text-red-700">
          {getErrorMessage(members.error)}
        </p>
      ) : (
        <ul className="divide-y divide-gray-200">
          {members.data.map((member) => (
            <MemberRow
              key={member.user.id}
              catalogue={catalogue}
              member={member}
              manage={manage && member.role !== 'owner' && member.user.id !== me}
              isMe={member.user.id === me}
            />
          ))}
        </ul>
      )}
    </ListCard>
  );
}

interface MemberRowProps {
  catalogue: Catalogue;
  member: Member;
  /** Whether the user may change this member's role and remove them. */
  manage: boolean;
  isMe: boolean;
}

function MemberRow({ catalogue, member, manage, isMe }: MemberRowProps) {
  const { user, role } = member;
  const change = useChangeMemberRole({
    mutationConfig: {
      onSuccess: ({ message }) => notifySuccess(message),
      onError: notifyError,
    },
  });
  const remove = useRemoveMember();
  const onRemove = async () => {
    const sure = await confirmAction(
      `Remove ${user.name}?`,
      `${user.name} will no longer see ${catalogue.name}.`,
      'Yes, remove',
    );
    if (!sure) return;
    try {
      notifySuccess(
        (await remove.mutateAsync({ catalogueId: catalogue.id, userId: user.id })).message,
      );
    } catch (error) {
      notifyError(error);
    }
  };
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-4 sm:px-6">
      <div className="min-w-0 flex-1">
        <p className="font-medium wrap-anywhere text-gray-900">
          {user.name}
          {isMe && <span className="font-normal text-gray-600"> (you)</span>}
        </p>
        <p className="text-sm break-all text-gray-600">{user.email}</p>
        <p className="text-xs text-gray-600">Joined {formatDateTime(member.joinedAt)}</p>
      </div>
      {manage ? (
        <div className="flex items-center gap-2">
          <label className="sr-only" htmlFor={`role-${user.id}`}>
            Role of {user.name}
          </label>
          <select
            id={`role-${user.id}`}
            value={role}
            disabled={change.isPending}
            onChange={(event) =>
              change.mutate({
                catalogueId: catalogue.id,
                userId: user.id,
                role: event.target.value as AssignableRole,
              })
            }
            className={selectClasses}
          >
            {ASSIGNABLE_ROLES.map((option) => (
              <option key={option} value={option}>
                {ROLE_LABELS[option]}
              </option>
            ))}
          </select>
          <button
            type="button"
            aria-label={`Remove ${user.name}`}
            disabled={remove.isPending}
            onClick={() => void onRemove()}
            className="rounded-md px-2 py-1.5 text-sm font-semibold text-red-700 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-red-600 disabled:opacity-60"
          >
            Remove
          </button>
        </div>
      ) : (
        <RoleBadge role={role} />
      )}
    </li>
  );
}
