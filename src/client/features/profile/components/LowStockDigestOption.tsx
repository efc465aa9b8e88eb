import { useState } from 'react';
import { Card } from '@/components/ui/Card.js';
import { notifySuccess } from '@/lib/notify.js';
import { usePreferences, useUpdatePreferences } from '../api/preferences.js';

/**
 * The daily low-stock digest, on or off: a preference of its own, saved as soon as it is ticked,
 * apart from the name and e-mail (whose save may wait for a code).
 */
export function LowStockDigestOption() {
  const preferences = usePreferences();
  const save = useUpdatePreferences({
    mutationConfig: { onSuccess: ({ message }) => notifySuccess(message) },
  });
  // From the click until the saved answer is read back, the box shows what was asked for: set at
  // once, since the mutation reports itself pending only after a turn.
  const [asked, setAsked] = useState<boolean>();
  const checked = asked ?? preferences.data?.lowStockDigest ?? false;
  return (
    <Card className="px-6 py-6 sm:px-8">
      <label className="flex items-start gap-3 text-sm text-gray-900">
        <input
          type="checkbox"
          aria-describedby="low-stock-digest-hint"
          checked={checked}
          disabled={!preferences.data || save.isPending}
          onChange={(event) => {
            setAsked(event.target.checked);
            save.mutate(
              { lowStockDigest: event.target.checked },
              { onSettled: () => setAsked(undefined) },
            );
          }}
          className="mt-0.5 size-5 cursor-pointer rounded accent-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        />
        <span className="font-medium">E-mail me a daily low-stock digest</span>
      </label>
      <p id="low-stock-digest-hint" className="mt-1 pl-8 text-sm text-gray-600">
        The products that reached their reorder point since the last one, once a day.
      </p>
    </Card>
  );
}
