import { useNavigate } from 'react-router';
import { can } from '@shared/catalogue-roles.js';
import type { Catalogue } from '@shared/schemas/catalogues.js';
import { Button } from '@/components/ui/Button.js';
import { CardSection } from '@/components/ui/Card.js';
import { useUser } from '@/lib/session/get-user.js';
import { dropCatalogueCache } from '@/lib/catalogues/catalogue-cache.js';
import { notifyError, notifySuccess } from '@/lib/notify.js';
import { paths } from '@/lib/paths.js';
import { queryClient } from '@/lib/query/query-client.js';
import { useDeleteCatalogue } from '../api/delete-catalogue.js';
import { useMembers } from '../api/get-members.js';
import { useRemoveMember } from '../api/remove-member.js';
import { useTransferOwnership } from '../api/transfer-ownership.js';
import { confirmAction } from '@/components/dialogs/confirm-action.js';

/**
 * The way out: Leave for every member but the owner; for the owner of a shared catalogue, Hand
 * over (to an admin, who becomes owner; the owner becomes an admin) and Delete. Each asks first.
 */
export function LeaveOrEnd({ catalogue }: { catalogue: Catalogue }) {
  const navigate = useNavigate();
  const user = useUser().data;
  const members = useMembers(catalogue.id);
  const leave = useRemoveMember();
  const remove = useDeleteCatalogue();
  const transfer = useTransferOwnership();
  const owner = catalogue.role === 'owner';
  if (catalogue.personal && owner) return null;
  const admins = (members.data ?? []).filter((member) => member.role === 'admin');

  const onLeave = async () => {
    const sure = await confirmAction(
      `Leave ${catalogue.name}?`,
      'You will no longer see its products. An admin can invite you again.',
      'Yes, leave it',
    );
    if (!sure || !user) return;
    try {
      const { message } = await leave.mutateAsync({ catalogueId: catalogue.id, userId: user.id });
      dropCatalogueCache(queryClient, catalogue.id);
      notifySuccess(message);
      await navigate(paths.products.list.getHref(), { replace: true });
    } catch (error) {
      notifyError(error);
    }
  };

  const onDelete = async () => {
    const sure = await confirmAction(
      `Delete ${catalogue.name}?`,
      'Its products, pictures and stock history will be deleted for every member. This cannot be undone.',
      'Yes, delete it!',
    );
    if (!sure) return;
    try {
      const { message } = await remove.mutateAsync(catalogue.id);
      notifySuccess(message);
      await navigate(paths.catalogues.getHref(), { replace: true });
    } catch (error) {
      notifyError(error);
    }
  };

  const onHandOver = async (userId: string) => {
    const admin = admins.find((member) => member.user.id === userId);
    if (!admin) return;
    const sure = await confirmAction(
      `Hand ${catalogue.name} over to ${admin.user.name}?`,
      `${admin.user.name} becomes its owner and you become an admin.`,
      'Yes, hand it over',
    );
    if (!sure) return;
    try {
      const { message } = await transfer.mutateAsync({ catalogueId: catalogue.id, userId });
      notifySuccess(message);
    } catch (error) {
      notifyError(error);
    }
  };

  return (
    <CardSection
      id="catalogue-end"
      title={owner ? 'Ownership' : 'Membership'}
      className="space-y-4"
    >
      {!owner && (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-gray-600">Stop being a member of this catalogue.</p>
          <Button variant="danger" busy={leave.isPending} onClick={() => void onLeave()}>
            Leave catalogue
          </Button>
        </div>
      )}
      {owner && can(catalogue.role, 'transferOwnership') && (
        <HandOver admins={admins} busy={transfer.isPending} onHandOver={onHandOver} />
      )}
      {owner && can(catalogue.role, 'deleteCatalogue') && (
        <div className="flex flex-wrap items-center justify-between gap-3 border-t border-gray-200 pt-4">
          <p className="text-sm text-gray-600">
            Delete the catalogue and everything in it, for every member.
          </p>
          <Button variant="danger" busy={remove.isPending} onClick={() => void onDelete()}>
            Delete catalogue
          </Button>
        </div>
      )}
    </CardSection>
  );
}

interface HandOverProps {
  admins: { user: { id: string; name: string; email: string } }[];
  busy: boolean;
  onHandOver: (userId: string) => Promise<void>;
}

/** 'Hand over to' one of the admins; without an admin, how to get one. */
function HandOver({ admins, busy, onHandOver }: HandOverProps) {
  if (admins.length === 0) {
    return (
      <p className="text-sm text-gray-600">
        To hand the catalogue over, first make one of its members an admin.
      </p>
    );
  }
  return (
    <form
      className="flex flex-col gap-3 sm:flex-row sm:items-end"
      onSubmit={(event) => {
        event.preventDefault();
        const userId = new FormData(event.currentTarget).get('admin');
        if (typeof userId === 'string') void onHandOver(userId);
      }}
    >
      <label className="flex-1 text-sm font-medium text-gray-900">
        Hand over to
        <select
          name="admin"
          className="mt-2 block w-full rounded-lg border-0 py-2 pr-8 pl-3 text-gray-900 ring-1 ring-gray-300 ring-inset"
        >
          {admins.map(({ user }) => (
            <option key={user.id} value={user.id}>
              {user.name} ({user.email})
            </option>
          ))}
        </select>
      </label>
      <Button type="submit" variant="secondary" busy={busy}>
        Hand over
      </Button>
    </form>
  );
}
