import { useState } from 'react';
import { profileSchema, type User } from '@shared/schemas/auth.js';
import { FormTextField } from '@/components/forms/FormField.js';
import { PageSpinner } from '@/components/ui/Spinner.js';
import { useUser } from '@/lib/session/get-user.js';
import { useZodForm } from '@/lib/forms/form.js';
import { notifySuccess } from '@/lib/notify.js';
import { useUpdateProfile } from '../api/update-profile.js';
import { useBackToProducts } from '../hooks/back-to-products.js';
import { EmailCodeEntry } from './EmailCodeEntry.js';
import { LowStockDigestOption } from './LowStockDigestOption.js';
import { SettingsForm } from './SettingsForm.js';

/** 'Profile': name and e-mail, prefilled from the current user. */
export function ProfileForm() {
  const user = useUser();
  if (!user.data) return <PageSpinner label="Loading your profile..." />;
  return <ProfileFields user={user.data} />;
}

function ProfileFields({ user }: { user: User }) {
  const backToProducts = useBackToProducts();
  // The address a code was just sent to: the account keeps its own until the code comes back.
  const [pending, setPending] = useState<string>();
  const update = useUpdateProfile({
    mutationConfig: {
      onSuccess: (answer, values) => {
        if (values.email === user.email) return backToProducts(answer);
        notifySuccess(answer.message);
        setPending(values.email);
      },
    },
  });
  const form = useZodForm(
    profileSchema,
    { defaultValues: { name: user.name, email: user.email } },
    { preloadWhenShown: true },
  );

  return (
    <>
      <SettingsForm
        title="Profile"
        description="Your name and the email you log in with."
        form={form}
        onSubmit={form.submit((values) => update.mutateAsync(values))}
        submitLabel="Update Profile"
      >
        <FormTextField form={form} name="name" label="Name" autoComplete="name" />
        <FormTextField form={form} name="email" label="Email" type="email" autoComplete="email" />
      </SettingsForm>
      {pending && <EmailCodeEntry key={pending} pending={pending} current={user.email} />}
      <LowStockDigestOption />
    </>
  );
}
