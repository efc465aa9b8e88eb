import { changePasswordSchema } from '@shared/schemas/auth.js';
import { FormTextField } from '@/components/forms/FormField.js';
import { NewPasswordFields } from '@/components/forms/NewPasswordFields.js';
import { useZodForm } from '@/lib/forms/form.js';
import { useChangePassword } from '../api/change-password.js';
import { useBackToProducts } from '../hooks/back-to-products.js';
import { SettingsForm } from './SettingsForm.js';

export function ChangePasswordForm() {
  const change = useChangePassword({ mutationConfig: { onSuccess: useBackToProducts() } });
  const form = useZodForm(
    changePasswordSchema,
    { defaultValues: { currentPassword: '', newPassword: '', confirmNewPassword: '' } },
    { preloadWhenShown: true },
  );

  return (
    <SettingsForm
      title="Change Password"
      description="Changing it signs you out everywhere else."
      form={form}
      onSubmit={form.submit((values) => change.mutateAsync(values))}
      submitLabel="Change Password"
    >
      <FormTextField
        form={form}
        name="currentPassword"
        label="Current Password"
        type="password"
        autoComplete="current-password"
      />
      <NewPasswordFields
        form={form}
        password={{ name: 'newPassword', label: 'New Password' }}
        confirm={{ name: 'confirmNewPassword', label: 'Confirm New Password' }}
      />
    </SettingsForm>
  );
}
