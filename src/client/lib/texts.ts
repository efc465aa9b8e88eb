/** Helper texts shown by more than one feature. */
export const PASSWORD_HINT = 'At least 8 characters, with a letter and a number.';
