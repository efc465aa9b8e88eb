import { useNavigate } from 'react-router';
import { changePasswordSchema } from '@shared/schemas/auth.js';
import { Button } from '@/components/ui/Button.js';
import { FormTextField } from '@/components/ui/FormField.js';
import { setToken } from '@/lib/auth/token.js';
import { useZodForm } from '@/lib/form.js';
import { notifySuccess } from '@/lib/notify.js';
import { PASSWORD_HINT } from '@/lib/texts.js';
import { useChangePassword } from '../api/change-password.js';
import { SettingsPanel } from './SettingsPanel.js';

export function ChangePasswordForm() {
  const navigate = useNavigate();
  const change = useChangePassword();
  const form = useZodForm(changePasswordSchema, {
    defaultValues: { currentPassword: '', newPassword: '', confirmNewPassword: '' },
  });

  const onSubmit = form.submit(async (values) => {
    const { message, token } = await change.mutateAsync(values);
    // The server revoked the token of this request; keep the fresh one.
    setToken(token);
    notifySuccess(message);
    await navigate('/');
  });

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
