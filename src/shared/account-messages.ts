/**
 * The texts of the account's own settings beyond the spec's screens: preferences, two-factor
 * sign-in, sessions, deleting the account. Word for word here or nowhere, like messages.ts.
 */
export const A = {
  preferencesSaved: 'Preferences saved',
} as const;
