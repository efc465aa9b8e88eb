import type { RefObject } from 'react';
import { Button } from '@/components/ui/Button.js';
import type { CameraState } from '../use-camera-scanner.js';

const MESSAGES: Record<Exclude<CameraState, 'scanning'>, string> = {
  starting: 'Starting the camera...',
  refused:
    'The camera is not allowed for this site. Allow it in the browser’s settings, or type the code below.',
  unavailable: 'No camera can be used here. Type the code below, or use a keyboard scanner.',
};

interface CameraViewProps {
  video: RefObject<HTMLVideoElement | null>;
  state: CameraState;
  onAgain: () => void;
}

/** The camera's picture, or why there is none, in a box of one size (nothing moves when it starts). */
export function CameraView({ video, state, onAgain }: CameraViewProps) {
  return (
    <div className="space-y-2">
      <div className="relative aspect-[4/3] overflow-hidden rounded-lg bg-gray-900">
        <video
          ref={video}
          muted
          playsInline
          aria-label="Camera"
          className={`h-full w-full object-cover ${state === 'scanning' ? '' : 'invisible'}`}
        />
        {state !== 'scanning' && (
          <p
            role={state === 'starting' ? undefined : 'alert'}
            className="absolute inset-0 flex items-center justify-center p-6 text-center text-base text-white"
          >
            {MESSAGES[state]}
          </p>
        )}
      </div>
      {/* Always there, so that nothing below moves when the camera starts. */}
      <div className="flex items-center justify-between gap-3">
        <p className="text-sm text-gray-600">A code counts once while it stays in view.</p>
        <Button variant="secondary" onClick={onAgain} disabled={state !== 'scanning'}>
          Again
        </Button>
      </div>
    </div>
  );
}
