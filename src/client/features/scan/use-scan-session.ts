import { useCallback, useRef, useState } from 'react';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { useNavigate } from 'react-router';
import type { StockReason } from '@shared/constants.js';
import type { ProductListItem } from '@shared/schemas/products.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { paths } from '@/lib/paths.js';
import { useChangeStock } from '@/lib/stock-change/index.js';
import { lookupProduct } from './api/lookup-product.js';
import { productOfLink } from './product-link.js';
import type { ScanMode } from './scan-modes.js';

/** What the last scan did, as the screen shows it. */
export type ScanOutcome =
  | {
      kind: 'changed';
      product: ProductListItem;
      saved: ProductListItem;
      delta: number;
      undone: boolean;
      queued: boolean;
    }
  | { kind: 'counting'; product: ProductListItem }
  | { kind: 'unknown'; code: string }
  | { kind: 'ignored'; typed: string }
  | { kind: 'failed'; message: string };

/** One product's line in the session's tally: how many scans, and the units they moved. */
export interface TallyLine {
  product: ProductListItem;
  scans: number;
  delta: number;
}

/** A scan's stock change: units added (`delta`, negative: taken) or the stock as counted. */
type ScanChange = { reason?: StockReason; note: string } & ({ delta: number } | { count: number });

const NOTE = 'scan';
const UNDO_NOTE = 'scan undone';

const CHANGES: Partial<Record<ScanMode, ScanChange>> = {
  receive: { delta: 1, reason: 'received', note: NOTE },
  pick: { delta: -1, reason: 'sold', note: NOTE },
};

/** The tally with one more change (or an undo: `scans` -1) of `product`, latest first. */
function tallied(tally: TallyLine[], product: ProductListItem, delta: number, scans: number) {
  const earlier = tally.find((line) => line.product.id === product.id);
  const line = {
    product,
    scans: (earlier?.scans ?? 0) + scans,
    delta: (earlier?.delta ?? 0) + delta,
  };
  return [line, ...tally.filter((other) => other !== earlier)];
}

/**
 * Turns recognised codes into stock changes by the chosen mode, one at a time in the order they
 * were read (two quick scans of one product must both count). Receive and Pick move `quantity`
 * units (one unless given). Undo takes the last change back as an opposite change of its own, so
 * the stock history shows both. Every change is a line of the session's tally.
 */
export function useScanSession(mode: ScanMode) {
  const catalogue = useCatalogueRef();
  const navigate = useNavigate();
  const sendChange = useChangeStock('scan');
  const [outcome, setOutcome] = useState<ScanOutcome>();
  const [busy, setBusy] = useState(false);
  const [tally, setTally] = useState<TallyLine[]>([]);
  const queue = useRef(Promise.resolve());

  /**
   * The product as the change leaves it on screen, and as the server last said (what an undo
   * starts from): the same once sent, the server's without the waiting changes while queued.
   */
  const changeStock = useCallback(
    async (product: ProductListItem, change: ScanChange) => {
      const result = await sendChange({ product, ...change });
      const saved = result.queued ? product : { ...product, ...result.product };
      return {
        product: { ...saved, stock: result.stock },
        saved,
        delta: result.delta,
        queued: result.queued,
      };
    },
    [sendChange],
  );

  const run = useCallback((task: () => Promise<ScanOutcome | undefined>) => {
    queue.current = queue.current.then(async () => {
      setBusy(true);
      try {
        const next = await task();
        if (next) setOutcome(next);
        if (next?.kind === 'changed') {
          setTally((lines) =>
            tallied(
              lines,
              next.product,
              next.undone ? -next.delta : next.delta,
              next.undone ? -1 : 1,
            ),
          );
        }
      } catch (error) {
        setOutcome({ kind: 'failed', message: getErrorMessage(error) });
      } finally {
        setBusy(false);
      }
    });
    return queue.current;
  }, []);

  const openProduct = useCallback(
    (id: string, inCatalogue = catalogue) =>
      navigate(paths.products.details.getHref(id, inCatalogue)),
    [navigate, catalogue],
  );

  /** A code from the camera, a keyboard scanner or the field; `lookUp` only finds its product. */
  const handleCode = useCallback(
    (code: string, { lookUp = mode === 'lookup', quantity = 1 } = {}) =>
      run(async () => {
        const linked = productOfLink(code);
        if (linked) return void (await openProduct(linked.id, linked.catalogueId ?? catalogue));
        const product = await lookupProduct(catalogue, code);
        if (!product) return { kind: 'unknown', code };
        if (lookUp) return void (await openProduct(product.id));
        const change = CHANGES[mode];
        if (!change) return { kind: 'counting', product };
        const moved = 'delta' in change ? { ...change, delta: change.delta * quantity } : change;
        return {
          kind: 'changed',
          ...(await changeStock(product, moved)),
          undone: false,
        };
      }),
    [mode, run, openProduct, catalogue, changeStock],
  );

  /** Count mode: the stock as counted, for the product just scanned. */
  const setCount = useCallback(
    (product: ProductListItem, count: number) =>
      run(async () => {
        const result = await changeStock(product, {
          count,
          reason: 'counted',
          note: NOTE,
        });
        return { kind: 'changed', ...result, undone: false };
      }),
    [run, changeStock],
  );

  const undo = useCallback(
    () =>
      run(async () => {
        if (outcome?.kind !== 'changed' || outcome.undone) return undefined;
        const result = await changeStock(outcome.saved, {
          delta: -outcome.delta,
          note: UNDO_NOTE,
        });
        return {
          ...outcome,
          product: result.product,
          saved: result.saved,
          undone: true,
          queued: result.queued,
        };
      }),
    [outcome, run, changeStock],
  );

  /** A burst typed like a scan that was not a code: said where the result shows. */
  const ignored = useCallback((typed: string) => setOutcome({ kind: 'ignored', typed }), []);

  return {
    outcome,
    tally,
    busy,
    handleCode,
    setCount,
    undo,
    ignored,
    clear: () => setOutcome(undefined),
  };
}
