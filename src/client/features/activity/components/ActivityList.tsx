import { useState } from 'react';
import type { ActivityEntry } from '@shared/schemas/activity.js';
import { Button } from '@/components/ui/Button.js';
import { useUser } from '@/lib/session/get-user.js';
import type { CatalogueRef } from '@/lib/catalogue-ref.js';
import { formatDateTime } from '@/lib/format.js';
import { notifyError } from '@/lib/notify.js';
import { useUndoActivity } from '../api/undo-activity.js';
import { describeEntry, SOURCE_LABELS, timeAgo } from './describe.js';

/** The log's entries, one line each: who, what, from where, when; 'Undo' where it can be. */
export function ActivityList({
  catalogue,
  entries,
}: {
  catalogue: CatalogueRef;
  entries: ActivityEntry[];
}) {
  const user = useUser().data;
  const undo = useUndoActivity(catalogue);
  // Shown at once, before the log is read again.
  const [undone, setUndone] = useState<ReadonlySet<string>>(new Set());
  return (
    <ul className="divide-y divide-gray-200" aria-label="Activity entries">
      {entries.map((entry) => {
        const who = entry.actor
          ? entry.actor.id === user?.id
            ? 'You'
            : entry.actor.name
          : 'Someone';
        const undoing = undo.isPending && undo.variables === entry.id;
        return (
          <li
            key={entry.id}
            data-activity-entry={entry.kind}
            className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3 text-sm sm:px-6"
          >
            <span className="font-semibold text-gray-900">{who}</span>
            <span className="min-w-0 wrap-anywhere text-gray-800">{describeEntry(entry)}</span>
            <span className="rounded-full bg-gray-100 px-2 py-0.5 text-xs font-medium text-gray-700">
              {SOURCE_LABELS[entry.source]}
            </span>
            <time dateTime={entry.at} title={formatDateTime(entry.at)} className="text-gray-600">
              {timeAgo(entry.at)}
            </time>
            <span className="ml-auto">
              {entry.undoneBy !== null || undone.has(entry.id) ? (
                <span className="text-xs font-semibold text-gray-600">Undone</span>
              ) : entry.undoable ? (
                <Button
                  variant="secondary"
                  disabled={undoing}
                  onClick={() =>
                    undo.mutate(entry.id, {
                      onSuccess: () => setUndone((ids) => new Set(ids).add(entry.id)),
                      onError: notifyError,
                    })
                  }
                >
                  Undo
                </Button>
              ) : null}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
