import { useNavigate } from 'react-router';
import { profileSchema, type User } from '@shared/schemas/auth.js';
import { Button } from '@/components/ui/Button.js';
import { FormTextField } from '@/components/ui/FormField.js';
import { PageSpinner } from '@/components/ui/Spinner.js';
import { useUser } from '@/lib/auth/get-user.js';
import { useZodForm } from '@/lib/form.js';
import { notifySuccess } from '@/lib/notify.js';
import { paths } from '@/lib/paths.js';
import { useUpdateProfile } from '../api/update-profile.js';
import { SettingsPanel } from './SettingsPanel.js';

/** 'Profile': name and e-mail, prefilled from the current user. */
export function ProfileForm() {
  const user = useUser();
  if (!user.data) return <PageSpinner label="Loading your profile..." />;
  return <ProfileFields user={user.data} />;
}

function ProfileFields({ user }: { user: User }) {
  const navigate = useNavigate();
  const update = useUpdateProfile({
    mutationConfig: {
      onSuccess: async ({ message }) => {
        notifySuccess(message);
        await navigate(paths.products.list.getHref());
      },
    },
  });
  const form = useZodForm(profileSchema, { defaultValues: { name: user.name, email: user.email } });

  const onSubmit = form.submit((values) => update.mutateAsync(values));

  return (
    <SettingsPanel title="Profile" description="Your name and the email you log in with.">
      <form noValidate onSubmit={onSubmit} className="space-y-6">
        <FormTextField form={form} name="name" label="Name" autoComplete="name" />
        <FormTextField form={form} name="email" label="Email" type="email" autoComplete="email" />
        <div className="flex justify-end">
          <Button type="submit" busy={form.formState.isSubmitting} busyLabel="Saving...">
            Update Profile
          </Button>
        </div>
      </form>
    </SettingsPanel>
  );
}
