import { useCallback, useEffect, useMemo, useState } from 'react';
import { useCatalogueCan } from '@/lib/catalogues/current-catalogue.js';
import { useSearchParams } from 'react-router';
import { tabTitle } from '@/lib/texts.js';
import { Segmented } from '@/components/controls/Segmented.js';
import { useKeyboardScanner } from '@/lib/use-keyboard-scanner.js';
import { signalScan } from '@/lib/scan-signal.js';
import { rememberedMode, rememberMode, SCAN_MODES, type ScanMode } from '../scan-modes.js';
import { useCameraScanner } from '../use-camera-scanner.js';
import type { CountInto } from '../use-count-into.js';
import { useScanSession } from '../use-scan-session.js';
import { CameraView } from './CameraView.js';
import { CountIntoChoice } from './CountIntoChoice.js';
import { NextQuantity } from './NextQuantity.js';
import { ReceiveAgainstChoice } from './ReceiveAgainstChoice.js';
import { ScanOutcomePanel } from './ScanOutcomePanel.js';
import { CurrentPlace, MovePanel } from './ScanPlace.js';
import { SessionTally } from './SessionTally.js';
import { TypedCode } from './TypedCode.js';

/**
 * /scan: the camera, a keyboard scanner or a typed code finds a product and, by the mode chosen,
 * adds some, takes some, has its count set, or opens it. Every scan read beeps and buzzes, and
 * each change is a line of the session's tally.
 */
export function ScanScreen() {
  // A code a keyboard scanner typed on the list: looked up, and the screen opens in Look up (not
  // remembered), so that the next scan opens its product rather than adding to it.
  const [search, setSearch] = useSearchParams();
  const listCode = search.get('code');
  // An order's 'receive by scanning': Receive mode, against that order.
  const [receiveAgainst, setReceiveAgainst] = useState(() => search.get('po') ?? undefined);
  const [chosenMode, setMode] = useState<ScanMode>(() =>
    listCode ? 'lookup' : search.get('po') ? 'receive' : rememberedMode(),
  );
  // A role that may not adjust stock only looks products up.
  const mayAdjust = useCatalogueCan()('adjustStock');
  const mode = mayAdjust ? chosenMode : 'lookup';
  // Count mode into an open count: each scan adds to the product's line there.
  const [countInto, setCountInto] = useState<CountInto>();
  const session = useScanSession(
    mode,
    mode === 'count' ? countInto : undefined,
    mode === 'receive' ? receiveAgainst : undefined,
  );
  const { handleCode, ignored } = session;
  // How many units the next Receive or Pick scan moves; back to 1 once used.
  const [quantity, setQuantity] = useState(1);
  const moves =
    mode === 'receive' || mode === 'pick' || mode === 'move' || (mode === 'count' && !!countInto);

  const onCode = useCallback(
    (code: string) => {
      void handleCode(code, { quantity: moves ? quantity : 1 });
      if (moves) setQuantity(1);
    },
    [handleCode, moves, quantity],
  );
  const onScan = useCallback(
    (code: string) => {
      signalScan();
      onCode(code);
    },
    [onCode],
  );
  const camera = useCameraScanner(onScan);
  useKeyboardScanner(useMemo(() => ({ onCode: onScan, onIgnored: ignored }), [onScan, ignored]));

  useEffect(() => {
    if (!listCode) return;
    setSearch({}, { replace: true });
    void handleCode(listCode, { lookUp: true });
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
            setQuantity(1);
            session.clear();
          }}
        />
      )}
      {mode === 'count' && (
        <CountIntoChoice
          value={countInto}
          onChange={(next) => {
            setCountInto(next);
            session.clear();
          }}
        />
      )}
      {mode === 'receive' && (
        <ReceiveAgainstChoice
          value={receiveAgainst}
          onChange={(next) => {
            setReceiveAgainst(next);
            session.clear();
          }}
        />
      )}
      {mode === 'move' ? (
        <MovePanel
          draft={session.move}
          onRemove={session.removeFromMove}
          onClear={session.clearMove}
        />
      ) : (
        mode !== 'lookup' && (
          <CurrentPlace
            place={session.place}
            hint={session.hasPlaces}
            onClear={session.clearPlace}
          />
        )
      )}
      {moves && <NextQuantity value={quantity} onChange={setQuantity} />}
      <CameraView video={camera.video} state={camera.state} onAgain={camera.again} />
      <div aria-live="polite" aria-busy={session.busy}>
        <ScanOutcomePanel
          outcome={session.outcome}
          busy={session.busy}
          onUndo={() => void session.undo()}
          onCount={(product, count, here) => void session.setCount(product, count, here)}
          onSetLine={(product, counted) => void session.setLine(product, counted)}
        />
      </div>
      <TypedCode onCode={onCode} />
      <SessionTally lines={session.tally} />
    </div>
  );
}
