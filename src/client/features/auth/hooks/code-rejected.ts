import { useHistoryState } from '@/lib/use-hydrated.js';

/** The options of navigate() that tell the next screen why the code was refused. */
export const codeRejectedState = (message: string) => ({ state: { codeRejected: message } });

/** The refusal a screen was sent with (kept in the history entry), if any. */
export function useCodeRejected(): string | undefined {
  const state = useHistoryState();
  if (typeof state !== 'object' || state === null || !('codeRejected' in state)) return undefined;
  return typeof state.codeRejected === 'string' ? state.codeRejected : undefined;
}
