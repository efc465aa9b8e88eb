import { screen, waitFor } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { expect } from 'vitest';

interface PasswordPair {
  user: UserEvent;
  /** The labels of the new password and of the field that repeats it. */
  password: string;
  confirm: string;
  /** Sends the form, which must fail on the mismatch alone. */
  submit: () => Promise<void>;
}

const MISMATCH = 'Passwords do not match';

/**
 * After a first submit, the confirmation follows a change of either field: the mismatch goes
 * when the user fixes the password, and comes back when the password moves away again.
 */
export async function expectConfirmFollowsPassword({
  user,
  password,
  confirm,
  submit,
}: PasswordPair) {
  const passwordField = screen.getByLabelText(password);
  const confirmField = screen.getByLabelText(confirm);
  await user.type(passwordField, 'abcd1234');
  await user.type(confirmField, 'abcd12345');
  // Nothing is checked before the first submit.
  expect(confirmField).not.toHaveAttribute('aria-invalid');
  await submit();
  await waitFor(() => expect(confirmField).toHaveAccessibleDescription(MISMATCH));

  // Fixed from the password field: both read abcd12345.
  await user.type(passwordField, '5');
  await waitFor(() => expect(confirmField).not.toHaveAccessibleDescription(MISMATCH));
  expect(confirmField).not.toHaveAttribute('aria-invalid');

  // The password moves away from a matching confirmation.
  await user.type(passwordField, '6');
  await waitFor(() => expect(confirmField).toHaveAccessibleDescription(MISMATCH));
  expect(confirmField).toHaveAttribute('aria-invalid', 'true');
}
