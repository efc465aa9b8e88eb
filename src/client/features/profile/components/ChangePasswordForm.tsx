import { useNavigate } from 'react-router';
import { changePasswordSchema } from '@shared/schemas/auth.js';
import { Button } from '@/components/ui/Button.js';
import { FormTextField } from '@/components/ui/FormField.js';
import { useZodForm } from '@/lib/form.js';
import { notifySuccess } from '@/lib/notify.js';
import { paths } from '@/lib/paths.js';
import { PASSWORD_HINT } from '@/lib/texts.js';
import { useChangePassword } from '../api/change-password.js';
import { SettingsPanel } from './SettingsPanel.js';

export function ChangePasswordForm() {
  const navigate = useNavigate();
  const change = useChangePassword({
    mutationConfig: {
      onSuccess: async ({ message }) => {
        notifySuccess(message);
        await navigate(paths.products.list.getHref());
      },
    },
  });
  const form = useZodForm(changePasswordSchema, {
    defaultValues: { currentPassword: '', newPassword: '', confirmNewPassword: '' },
  });

  const onSubmit = form.submit((values) => change.mutateAsync(values));

  return (
    <SettingsPanel title="Change Password" description="Changing it signs you out everywhere else.">
      <form noValidate onSubmit={onSubmit} className="space-y-6">
        <FormTextField
          form={form}
          name="currentPassword"
          label="Current Password"
          type="password"
          autoComplete="current-password"
        />
        <FormTextField
          form={form}
          name="newPassword"
          label="New Password"
          type="password"
          autoComplete="new-password"
          hint={PASSWORD_HINT}
        />
        <FormTextField
          form={form}
          name="confirmNewPassword"
          label="Confirm New Password"
          type="password"
          autoComplete="new-password"
        />
        <div className="flex justify-end">
          <Button type="submit" busy={form.formState.isSubmitting} busyLabel="Saving...">
            Change Password
          </Button>
        </div>
      </form>
    </SettingsPanel>
  );
}
