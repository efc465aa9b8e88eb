import { useId, useState } from 'react';
import { RetriedCodeInput } from '@/components/forms/CodeInput.js';
import { SpinnerIcon } from '@/components/ui/Spinner.js';
import { loadApiClient } from '@/lib/api-client.js';
import { preload as preloadChunk } from '@/lib/lazy-import.js';
import { loadAuthSchemas } from '@/lib/lazy-schemas.js';
import { notifyError, preloadToasts } from '@/lib/notify.js';

interface CodeEntryProps {
  /** Sends the code; resolves true when it was accepted. A rejected code is cleared. */
  onCode: (code: string) => Promise<boolean>;
  busyLabel: string;
  /** What to type, above the boxes. */
  instruction?: string;
}

/** The six-box code entry, submitted on its own once the sixth digit is in. */
export function CodeEntry({
  onCode,
  busyLabel,
  instruction = 'Enter the 6-digit code sent to your email',
}: CodeEntryProps) {
  const instructionId = useId();
  const [busy, setBusy] = useState(false);

  const preload = () => {
    preloadChunk(loadAuthSchemas);
    preloadChunk(loadApiClient);
    preloadToasts();
  };

  /** Whether the code is well formed; false also when the check itself could not be loaded. */
  const wellFormed = async (code: string) => {
    try {
      const { codeFormSchema } = await loadAuthSchemas();
      return codeFormSchema.safeParse({ token: code }).success;
    } catch (error) {
      notifyError(error);
      return false;
    }
  };

  const submit = async (code: string) => {
    setBusy(true);
    const accepted = (await wellFormed(code)) && (await onCode(code));
    setBusy(false);
    return accepted;
  };

  return (
    <div onFocus={preload}>
      <p id={instructionId} className="text-center text-sm text-gray-700">
        {instruction}
      </p>
      <div className="mt-6">
        <RetriedCodeInput labelledBy={instructionId} disabled={busy} onCode={submit} />
      </div>
      <p
        role="status"
        className="mt-4 flex min-h-5 items-center justify-center gap-2 text-sm text-gray-700"
      >
        {busy && (
          <>
            <SpinnerIcon className="size-4 text-indigo-600" />
            {busyLabel}
          </>
        )}
      </p>
    </div>
  );
}
