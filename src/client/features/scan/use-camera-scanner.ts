import { useCallback, useEffect, useRef, useState } from 'react';
import { createDetector } from './detector.js';
import { FrameGate } from './frame-gate.js';

/** How often the picture is read: fast enough to feel instant, slow enough for a phone's battery. */
const LOOK_EVERY_MS = 150;

export type CameraState = 'starting' | 'scanning' | 'refused' | 'unavailable';

const stateOfError = (error: unknown): CameraState =>
  error instanceof DOMException &&
  (error.name === 'NotAllowedError' || error.name === 'SecurityError')
    ? 'refused'
    : 'unavailable';

/**
 * The rear camera into the returned `video`, read continuously; `onCode` gets each code as it comes into view
 * (FrameGate). `again()` lets the codes in view count once more. The camera is released when the
 * screen goes.
 */
export function useCameraScanner(onCode: (code: string) => void) {
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<CameraState>('starting');
  const gate = useRef(new FrameGate());
  const latestOnCode = useRef(onCode);
  useEffect(() => {
    latestOnCode.current = onCode;
  }, [onCode]);

  useEffect(() => {
    let stopped = false;
    let stream: MediaStream | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const element = video.current;
    async function start() {
      if (!element || !navigator.mediaDevices?.getUserMedia) return setState('unavailable');
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: { ideal: 'environment' } },
          audio: false,
        });
      } catch (error) {
        return setState(stateOfError(error));
      }
      if (stopped) return;
      const detector = await createDetector();
      element.srcObject = stream;
      await element.play();
      if (stopped) return;
      setState('scanning');
      const look = async () => {
        if (stopped) return;
        if (element.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) {
          const found = await detector.detect(element).catch(() => []);
          const codes = found.map((barcode) => barcode.rawValue).filter(Boolean);
          if (!stopped)
            for (const code of gate.current.look(codes, Date.now())) latestOnCode.current(code);
        }
        timer = setTimeout(() => void look(), LOOK_EVERY_MS);
      };
      void look();
    }

    start().catch(() => !stopped && setState('unavailable'));
    return () => {
      stopped = true;
      clearTimeout(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, []);

  const again = useCallback(() => gate.current.forget(), []);
  return { video, state, again };
}
