import { useEffect, useRef } from 'react';
import { useBlocker } from 'react-router';
import { notifyError } from '@/lib/notify.js';
import { confirmButtons, loadDialogs } from '@/components/dialogs/confirm-dialog.js';

/**
 * Asks before a screen with `changed` values is left: the app's own question for a move within
 * the app, the browser's when the tab closes or reloads. A save (run through `whileSaving`) that
 * moves on by itself is not asked about; one that fails leaves the question on.
 */
export function useLeavePrompt(changed: boolean) {
  const saving = useRef(false);
  const changedNow = useRef(changed);
  useEffect(() => {
    changedNow.current = changed;
  }, [changed]);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      changed && !saving.current && currentLocation.pathname !== nextLocation.pathname,
  );
  const asking = useRef(false);

  useEffect(() => {
    if (blocker.state !== 'blocked' || asking.current) return;
    asking.current = true;
    const ask = async () => {
      const Swal = await loadDialogs();
      const answer = await Swal.fire({
        title: 'Leave without saving?',
        text: 'Your changes to this product will be lost.',
        icon: 'warning',
        showCancelButton: true,
        confirmButtonText: 'Leave',
        cancelButtonText: 'Stay',
        focusCancel: true,
        ...confirmButtons,
      });
      if (answer.isConfirmed) blocker.proceed();
      else blocker.reset();
    };
    ask()
      .catch((error: unknown) => {
        blocker.reset();
        notifyError(error);
      })
      .finally(() => {
        asking.current = false;
      });
  }, [blocker]);

  useEffect(() => {
    const askTheBrowser = (event: BeforeUnloadEvent) => {
      if (changedNow.current && !saving.current) event.preventDefault();
    };
    window.addEventListener('beforeunload', askTheBrowser);
    return () => window.removeEventListener('beforeunload', askTheBrowser);
  }, []);

  return {
    whileSaving: async <T>(save: () => Promise<T>): Promise<T> => {
      saving.current = true;
      try {
        return await save();
      } catch (error) {
        saving.current = false;
        throw error;
      }
    },
  };
}
