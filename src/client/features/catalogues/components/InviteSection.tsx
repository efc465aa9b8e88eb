import { useEffect } from 'react';
import { Controller } from 'react-hook-form';
import { useLocation } from 'react-router';
import { ASSIGNABLE_ROLES, ROLE_DESCRIPTIONS, ROLE_LABELS } from '@shared/catalogue-roles.js';
import type { Catalogue } from '@shared/schemas/catalogues.js';
import { Card } from '@/components/ui/Card.js';
import { FormSubmitButton, FormTextField } from '@/components/forms/FormField.js';
import { getErrorMessage, getErrorStatus } from '@/lib/api-error.js';
import { formatDateTime } from '@/lib/format.js';
import { useZodForm } from '@/lib/forms/form.js';
import { notifyError, notifySuccess } from '@/lib/notify.js';
import { useSentInvitations } from '../api/get-sent-invitations.js';
import { useRevokeInvitation } from '../api/revoke-invitation.js';
import { useSendInvitation } from '../api/send-invitation.js';

const invitationSchema = () =>
  import('@shared/schemas/catalogues.js').then((m) => m.invitationBodySchema);

/**
 * For admins: invite someone by e-mail with a role (each role says what it may do), and the
 * invitations still pending, each with Revoke. Someone already a member is said at the e-mail.
 */
export function InviteSection({ catalogue }: { catalogue: Catalogue }) {
  const form = useZodForm(invitationSchema, { defaultValues: { email: '', role: 'editor' } });
  // Opened for inviting ('Invite people' in the header's catalogue menu): straight to the address.
  const invite = useLocation().hash === '#invite';
  const { setFocus } = form;
  useEffect(() => {
    if (invite) setFocus('email');
  }, [invite, setFocus]);
  const send = useSendInvitation({
    mutationConfig: {
      onSuccess: ({ message }) => {
        notifySuccess(message);
        form.reset({ email: '', role: form.getValues('role') });
      },
    },
  });
  // A 429 (the daily limit) is said in the server's own words, like every error (lib/api-error).
  const submit = form.submit(
    (values) => send.mutateAsync({ catalogueId: catalogue.id, ...values }),
    (error) => {
      if (getErrorStatus(error) === 409) {
        form.setError('email', { message: getErrorMessage(error) }, { shouldFocus: true });
      }
    },
  );
  return (
    <Card className="p-4 sm:p-6">
      <section id="invite" aria-labelledby="catalogue-invite" className="scroll-mt-20 space-y-6">
        <div>
          <h2 id="catalogue-invite" className="text-base font-semibold text-gray-900">
            Invite someone
          </h2>
          <p className="mt-1 text-sm text-gray-600">
            They get an e-mail; without an account they sign up with that address first.
          </p>
        </div>
        <form noValidate onFocus={form.preload} onSubmit={submit} className="space-y-4">
          <FormTextField form={form} name="email" label="Email" type="email" autoComplete="off" />
          <Controller
            control={form.control}
            name="role"
            render={({ field, fieldState }) => (
              <fieldset>
                <legend className="text-sm font-medium text-gray-900">Role</legend>
                <div className="mt-2 grid gap-2 sm:grid-cols-2">
                  {ASSIGNABLE_ROLES.map((role) => (
                    <label
                      key={role}
                      className="flex cursor-pointer gap-3 rounded-lg p-3 ring-1 ring-gray-200 has-checked:bg-indigo-50 has-checked:ring-indigo-600"
                    >
                      <input
                        type="radio"
                        name={field.name}
                        value={role}
                        checked={field.value === role}
                        onChange={() => field.onChange(role)}
                        onBlur={field.onBlur}
                        className="mt-1 accent-indigo-600"
                      />
                      <span>
                        <span className="block text-sm font-semibold text-gray-900">
                          {ROLE_LABELS[role]}
                        </span>
                        <span className="block text-sm text-gray-600">
                          {ROLE_DESCRIPTIONS[role]}
                        </span>
                      </span>
                    </label>
                  ))}
                </div>
                {fieldState.error?.message && (
                  <p className="mt-2 text-sm text-red-700">{fieldState.error.message}</p>
                )}
              </fieldset>
            )}
          />
          <FormSubmitButton form={form} busyLabel="Sending...">
            Send invitation
          </FormSubmitButton>
        </form>
        <PendingInvitations catalogueId={catalogue.id} />
      </section>
    </Card>
  );
}

function PendingInvitations({ catalogueId }: { catalogueId: string }) {
  const invitations = useSentInvitations(catalogueId, true);
  const revoke = useRevokeInvitation({
    mutationConfig: { onSuccess: ({ message }) => notifySuccess(message), onError: notifyError },
  });
  return (
    <div>
      <h3 className="text-sm font-semibold text-gray-900">Pending invitations</h3>
      {invitations.isError && !invitations.data ? (
        <p role="alert" className="mt-2 text-sm font-medium text-red-700">
          {getErrorMessage(invitations.error)}
        </p>
      ) : invitations.data?.length === 0 ? (
        <p className="mt-2 text-sm text-gray-600">None.</p>
      ) : (
        <ul className="mt-2 divide-y divide-gray-200 rounded-lg ring-1 ring-gray-200">
          {invitations.data?.map((invitation) => (
            <li key={invitation.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 p-3">
              <div className="min-w-0 flex-1">
                <p className="text-sm font-medium break-all text-gray-900">{invitation.email}</p>
                <p className="text-xs text-gray-600">
                  {ROLE_LABELS[invitation.role]} · invited by {invitation.invitedBy.name} · expires{' '}
                  {formatDateTime(invitation.expiresAt)}
                </p>
              </div>
              <button
                type="button"
                aria-label={`Revoke the invitation of ${invitation.email}`}
                disabled={revoke.isPending}
                onClick={() => revoke.mutate({ catalogueId, invitationId: invitation.id })}
                className="rounded-md px-2 py-1.5 text-sm font-semibold text-red-700 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-red-600 disabled:opacity-60"
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
