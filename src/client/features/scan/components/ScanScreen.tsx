import { useCallback, useEffect, useState } from 'react';
import { useCatalogueCan } from '@/lib/catalogues/current-catalogue.js';
import { useSearchParams } from 'react-router';
import { tabTitle } from '@/lib/texts.js';
import { Segmented } from '@/components/controls/Segmented.js';
import { useKeyboardScanner } from '@/lib/use-keyboard-scanner.js';
import { signalScan } from '../feedback.js';
import { rememberedMode, rememberMode, SCAN_MODES, type ScanMode } from '../scan-modes.js';
import { useCameraScanner } from '../use-camera-scanner.js';
import { useScanSession } from '../use-scan-session.js';
import { CameraView } from './CameraView.js';
import { ScanOutcomePanel } from './ScanOutcomePanel.js';
import { TypedCode } from './TypedCode.js';

/**
 * /scan: the camera, a keyboard scanner or a typed code finds a product and, by the mode chosen,
 * adds one, takes one, has its count set, or opens it.
 */
export function ScanScreen() {
  const [chosenMode, setMode] = useState<ScanMode>(rememberedMode);
  // A role that may not adjust stock only looks products up.
  const mayAdjust = useCatalogueCan()('adjustStock');
  const mode = mayAdjust ? chosenMode : 'lookup';
  const session = useScanSession(mode);
  const { handleCode } = session;

  const onScan = useCallback(
    (code: string) => {
      signalScan();
      void handleCode(code);
    },
    [handleCode],
  );
  const camera = useCameraScanner(onScan);
  useKeyboardScanner(onScan);

  // A code a keyboard scanner typed on the list: found, whatever the mode.
  const [search, setSearch] = useSearchParams();
  const listCode = search.get('code');
  useEffect(() => {
    if (!listCode) return;
    setSearch({}, { replace: true });
    void handleCode(listCode, true);
  }, [listCode, setSearch, handleCode]);

  return (
    <div className="mx-auto max-w-xl space-y-4">
      <title>{tabTitle('Scan')}</title>
      <h1 className="text-2xl font-bold tracking-tight text-gray-900 sm:text-3xl">Scan</h1>
      {mayAdjust && (
        <Segmented
          label="Mode"
          options={SCAN_MODES}
          value={mode}
          onChange={(next) => {
            setMode(next);
            rememberMode(next);
            session.clear();
          }}
        />
      )}
      <CameraView video={camera.video} state={camera.state} onAgain={camera.again} />
      <div aria-live="polite" aria-busy={session.busy}>
        <ScanOutcomePanel
          outcome={session.outcome}
          busy={session.busy}
          onUndo={() => void session.undo()}
          onCount={(product, count) => void session.setCount(product, count)}
        />
      </div>
      <TypedCode onCode={(code) => void handleCode(code)} />
    </div>
  );
}
