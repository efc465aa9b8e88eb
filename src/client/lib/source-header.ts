/**
 * The header that tells the server which screen made a change, kept in the activity log. A
 * literal rather than the shared constants: the stepper is on the list's first visit.
 */
export const sourceHeader = (source: 'scan' | 'stepper' | 'form' | 'activity') => ({
  'Stockroom-Source': source,
});
