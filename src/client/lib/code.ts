import { CODE_LENGTH } from '@shared/constants.js';

const CODE = new RegExp(`^\\d{${CODE_LENGTH}}$`);

/** A confirmation or reset code: exactly 6 digits (the shared codeSchema's rule, without zod). */
export const isCode = (value: string | null | undefined): value is string =>
  typeof value === 'string' && CODE.test(value);
