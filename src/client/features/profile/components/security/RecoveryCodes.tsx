import { Button } from '@/components/ui/Button.js';
import { saveDownload } from '@/lib/download.js';
import { notifySuccess } from '@/lib/notify.js';

/**
 * Recovery codes as shown once: to copy, download or write down, then put away. Nothing shows
 * them again; new ones replace them.
 */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `Stockroom recovery codes (each works once)\n\n${codes.join('\n')}\n`;
  return (
    <div className="rounded-xl bg-amber-50 p-4 ring-1 ring-amber-200">
      <h3 className="text-sm font-semibold text-amber-900">Save your recovery codes</h3>
      <p className="mt-1 text-sm text-amber-900">
        Each code logs you in once when your authenticator app is not at hand. They are shown only
        now: keep them somewhere safe, such as a password manager.
      </p>
      <ul aria-label="Recovery codes" className="mt-4 grid grid-cols-2 gap-2 font-mono text-sm">
        {codes.map((code) => (
          <li key={code} className="rounded bg-white px-3 py-1.5 text-center text-gray-900">
            {code}
          </li>
        ))}
      </ul>
      <div className="mt-4 flex flex-wrap gap-3">
        <Button
          variant="secondary"
          onClick={() =>
            void navigator.clipboard
              .writeText(text)
              .then(() => notifySuccess('Recovery codes copied'))
          }
        >
          Copy
        </Button>
        <Button
          variant="secondary"
          onClick={() =>
            saveDownload({
              blob: new Blob([text], { type: 'text/plain' }),
              filename: 'stockroom-recovery-codes.txt',
            })
          }
        >
          Download
        </Button>
        <Button onClick={onDone}>I have saved them</Button>
      </div>
    </div>
  );
}
