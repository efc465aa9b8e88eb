import { useId } from 'react';
import { RetriedCodeInput } from '@/components/forms/CodeInput.js';
import { SpinnerIcon } from '@/components/ui/Spinner.js';
import { notifyError } from '@/lib/notify.js';
import { useConfirmEmail } from '../api/confirm-email.js';
import { useBackToProducts } from '../hooks/back-to-products.js';

interface EmailCodeEntryProps {
  /** The address the code went to, which the account takes once the code is entered. */
  pending: string;
  current: string;
}

/**
 * The second step of an e-mail change: the account keeps its address until the code mailed to
 * the new one is entered here. A rejected code is cleared and the boxes take another.
 */
export function EmailCodeEntry({ pending, current }: EmailCodeEntryProps) {
  const instructionId = useId();
  const confirm = useConfirmEmail({ mutationConfig: { onSuccess: useBackToProducts() } });

  const submit = async (code: string) => {
    try {
      await confirm.mutateAsync(code);
      return true;
    } catch (error) {
      notifyError(error);
      return false;
    }
  };

  return (
    <section
      aria-labelledby={`${instructionId}-title`}
      className="mt-6 rounded-lg border border-indigo-200 bg-indigo-50 p-4"
    >
      <h2 id={`${instructionId}-title`} className="font-semibold text-gray-900">
        Confirm your new email
      </h2>
      <p id={instructionId} className="mt-1 text-sm text-gray-700">
        Enter the 6-digit code sent to <strong className="break-all">{pending}</strong>. Until then
        your email stays <span className="break-all">{current}</span>.
      </p>
      <div className="mt-4">
        <RetriedCodeInput labelledBy={instructionId} disabled={confirm.isPending} onCode={submit} />
      </div>
      <p role="status" className="mt-3 flex min-h-5 items-center gap-2 text-sm text-gray-700">
        {confirm.isPending && (
          <>
            <SpinnerIcon className="size-4 text-indigo-600" />
            Confirming...
          </>
        )}
      </p>
    </section>
  );
}
