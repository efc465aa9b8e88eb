import { useState } from 'react';
import type { Count } from '@shared/schemas/counts/counts.js';
import { Button } from '@/components/ui/Button.js';
import { confirmAction } from '@/components/dialogs/confirm-action.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { isActive } from '@/lib/counts/count-status.js';
import { notifyError } from '@/lib/notify.js';
import {
  useCountAction,
  useDownloadCount,
  usePostingEntry,
  useUndoPosting,
} from '../api/counts.js';

/** The count's files, each one button. */
const FILES = [
  { format: 'csv', label: 'Download CSV' },
  { format: 'pdf', label: 'Count sheet (PDF)' },
] as const;

/**
 * What a reviewer does with the count by its status: Review, Post (the places never counted left
 * alone or counted as 0), Cancel, or Undo a posting (from the activity log, within 7 days); and
 * the count as CSV or as a printable sheet, for everyone.
 */
export function CountActions({ count, manage }: { count: Count; manage: boolean }) {
  const catalogue = useCatalogueRef();
  const action = useCountAction(catalogue, count.id);
  const download = useDownloadCount(catalogue, count.id);
  const posting = usePostingEntry(catalogue, count.id, manage && count.status === 'posted');
  const undo = useUndoPosting(catalogue);
  const [uncountedAsZero, setUncountedAsZero] = useState(false);
  const act = (run: () => Promise<unknown>) => void run().catch(notifyError);
  const active = isActive(count);
  return (
    <div className="space-y-3">
      {manage && count.status === 'review' && (
        <label className="flex items-center gap-2 text-sm text-gray-900">
          <input
            type="checkbox"
            className="size-4 rounded border-gray-300"
            checked={uncountedAsZero}
            onChange={(event) => setUncountedAsZero(event.target.checked)}
          />
          Count uncounted as 0
        </label>
      )}
      <div className="flex flex-wrap gap-3">
        {manage && count.status === 'open' && (
          <Button
            busy={action.isPending}
            busyLabel="Moving..."
            onClick={() => act(() => action.mutateAsync({ kind: 'review' }))}
          >
            Review
          </Button>
        )}
        {manage && count.status === 'review' && (
          <Button
            busy={action.isPending}
            busyLabel="Posting..."
            onClick={() =>
              act(async () => {
                const sure = await confirmAction(
                  'Post this count?',
                  uncountedAsZero
                    ? "Each line's difference becomes a stock movement, and the places never counted go to 0."
                    : "Each line's difference becomes a stock movement; the places never counted are left alone.",
                  'Yes, post it',
                );
                if (sure) await action.mutateAsync({ kind: 'post', uncountedAsZero });
              })
            }
          >
            Post
          </Button>
        )}
        {manage && active && (
          <Button
            variant="secondary"
            disabled={action.isPending}
            onClick={() =>
              act(async () => {
                const sure = await confirmAction(
                  'Cancel this count?',
                  'Nothing changes stock; its lines stay readable.',
                  'Yes, cancel it',
                );
                if (sure) await action.mutateAsync({ kind: 'cancel' });
              })
            }
          >
            Cancel count
          </Button>
        )}
        {count.status === 'posted' && posting.data && (
          <Button
            variant="secondary"
            busy={undo.isPending}
            busyLabel="Undoing..."
            onClick={() =>
              act(async () => {
                const entry = posting.data;
                if (!entry) return;
                const sure = await confirmAction(
                  'Undo this posting?',
                  'Every movement it made is taken back and the count goes back to review.',
                  'Yes, undo it',
                );
                if (sure) await undo.mutateAsync(entry.id);
              })
            }
          >
            Undo posting
          </Button>
        )}
        {FILES.map(({ format, label }) => (
          <Button
            key={format}
            variant="secondary"
            disabled={download.isPending}
            onClick={() => download.mutate(format)}
          >
            {label}
          </Button>
        ))}
      </div>
    </div>
  );
}
