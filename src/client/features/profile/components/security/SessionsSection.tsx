import type { DeviceSession } from '@shared/schemas/sessions.js';
import { confirmAction } from '@/components/dialogs/confirm-action.js';
import { Button } from '@/components/ui/Button.js';
import { SpinnerIcon } from '@/components/ui/Spinner.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { formatDateTime } from '@/lib/format.js';
import { notifyError, notifySuccess } from '@/lib/notify.js';
import { useEndOtherSessions, useEndSession, useSessions } from '../../api/sessions.js';
import { Section } from './Section.js';

/** Where the account is signed in: each device, and a way to end it or all the others. */
export function SessionsSection() {
  const sessions = useSessions();
  const endOthers = useEndOtherSessions();
  const others = sessions.data?.filter((session) => !session.current).length ?? 0;

  const confirmEndOthers = async () => {
    const sure = await confirmAction(
      'End every other session?',
      'Every other device signed in to your account is signed out at once, open tabs included.',
      'End other sessions',
    );
    if (!sure) return;
    try {
      notifySuccess((await endOthers.mutateAsync()).message);
    } catch (error) {
      notifyError(error);
    }
  };

  return (
    <Section
      title="Sessions"
      description="The devices signed in to your account. End any you do not recognise, then change your password."
    >
      {sessions.data === undefined ? (
        sessions.isError ? (
          <p role="alert">{getErrorMessage(sessions.error)}</p>
        ) : (
          <SpinnerIcon className="size-6 text-indigo-600" />
        )
      ) : (
        <ul aria-label="Your sessions" className="divide-y divide-gray-200">
          {sessions.data.map((session) => (
            <SessionRow key={session.id} session={session} />
          ))}
        </ul>
      )}
      {others > 0 && (
        <div className="mt-6">
          <Button
            variant="secondary"
            busy={endOthers.isPending}
            busyLabel="Ending..."
            onClick={() => void confirmEndOthers()}
          >
            End all other sessions
          </Button>
        </div>
      )}
    </Section>
  );
}

function SessionRow({ session }: { session: DeviceSession }) {
  const end = useEndSession();
  const device = session.device ?? 'Unknown device';

  const confirmEnd = async () => {
    const sure = await confirmAction(
      'End this session?',
      `${device} is signed out at once, open tabs included.`,
      'End session',
    );
    if (!sure) return;
    try {
      notifySuccess((await end.mutateAsync(session.id)).message);
    } catch (error) {
      notifyError(error);
    }
  };

  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-4">
      <div className="min-w-0">
        <p className="truncate text-sm font-medium text-gray-900">
          {device}
          {session.current && (
            <span className="ml-2 rounded-full bg-green-100 px-2 py-0.5 text-xs font-medium text-green-800">
              This device
            </span>
          )}
        </p>
        <p className="text-sm text-gray-600">
          {session.place ?? 'Unknown place'} · last active {formatDateTime(session.lastSeenAt)}
        </p>
      </div>
      {!session.current && (
        <Button
          variant="secondary"
          aria-label={`End the session of ${device}`}
          busy={end.isPending}
          busyLabel="Ending..."
          onClick={() => void confirmEnd()}
        >
          End
        </Button>
      )}
    </li>
  );
}
