import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { useNavigate } from 'react-router';
import type { StockReason } from '@shared/constants.js';
import type { ProductListItem } from '@shared/schemas/products.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { paths } from '@/lib/paths.js';
import { useAllPendingChanges, useChangeStock } from '@/lib/stock-change/index.js';
import { useLocations } from '@/lib/locations/locations-query.js';
import { moveStock } from '@/lib/stock-change/moves/move.js';
import { placesWithPending } from '@/lib/stock-change/moves/places.js';
import { lookupCode, placesOf, type ScanLocation } from './api/lookup-code.js';
import type { Here, ScanOutcome } from './scan-outcome.js';
import { useReceiveAgainstLine } from './use-receive-against.js';
import { productOfLink } from './product-link.js';
import type { ScanMode } from './scan-modes.js';
import { useCountIntoLine, type CountInto } from './use-count-into.js';

export type { Here, ScanOutcome } from './scan-outcome.js';

/** One product's line in the session's tally: how many scans, and the units they moved. */
export interface TallyLine {
  product: ProductListItem;
  scans: number;
  delta: number;
}

/** A Move in the making: where from, and each product with the units to take. */
export interface MoveDraft {
  from: ScanLocation | undefined;
  lines: { product: ProductListItem; quantity: number }[];
}

const NO_MOVE: MoveDraft = { from: undefined, lines: [] };

/** The draft with `quantity` more of `product`, in the order first scanned. */
function addedTo(draft: MoveDraft, product: ProductListItem, quantity: number): MoveDraft {
  const known = draft.lines.some((line) => line.product.id === product.id);
  return {
    ...draft,
    lines: known
      ? draft.lines.map((line) =>
          line.product.id === product.id ? { ...line, quantity: line.quantity + quantity } : line,
        )
      : [...draft.lines, { product, quantity }],
  };
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
 *
 * A location's code makes it the current location: Receive, Pick and Count then apply there, and
 * a product shows what it holds there. In Move, the first location scanned is where from, the
 * products scanned are what moves, and the next location scanned is where to: the move goes.
 */
export function useScanSession(mode: ScanMode, countInto?: CountInto, receiveAgainst?: string) {
  const catalogue = useCatalogueRef();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const sendChange = useChangeStock('scan');
  const [outcome, setOutcome] = useState<ScanOutcome>();
  const [busy, setBusy] = useState(false);
  const [tally, setTally] = useState<TallyLine[]>([]);
  const [place, setPlace] = useState<ScanLocation>();
  const [move, setMove] = useState<MoveDraft>(NO_MOVE);
  const queue = useRef(Promise.resolve());
  const pending = useAllPendingChanges();
  // The tree, read while online: a location's code scanned offline is found in it.
  const tree = useLocations(catalogue).data;

  /** What a product holds at a location: the server's, with this user's waiting changes. */
  const heldAt = useCallback(
    async (productId: string, location: ScanLocation) => {
      const places = await placesOf(catalogue, productId);
      const shown = placesWithPending(places ?? [], productId, pending, undefined, () => '');
      return shown.find((one) => one.locationId === location.id)?.quantity ?? 0;
    },
    [catalogue, pending],
  );

  /**
   * The product as the change leaves it on screen, and as the server last said (what an undo
   * starts from): the same once sent, the server's without the waiting changes while queued.
   * At a location, what the product holds there before and after.
   */
  const changeStock = useCallback(
    async (product: ProductListItem, change: ScanChange, here?: Here) => {
      const location = here && {
        id: here.location.id,
        path: here.location.path,
        held: here.quantity,
      };
      const result = await sendChange({ product, ...change, location });
      const saved = result.queued ? product : { ...product, ...result.product };
      return {
        product: { ...saved, stock: result.stock },
        saved,
        delta: result.delta,
        queued: result.queued,
        here: here && { ...here, quantity: here.quantity + result.delta },
      };
    },
    [sendChange],
  );

  /** Move: a location is where from, or (with products to move) where to, and the move goes. */
  const moveAt = useCallback(
    async (location: ScanLocation): Promise<ScanOutcome> => {
      if (!move.from || move.lines.length === 0) {
        setMove({ from: location, lines: [] });
        return { kind: 'place', location };
      }
      if (move.from.id === location.id) {
        return { kind: 'failed', message: 'That is where they come from: scan where they go.' };
      }
      const from = move.from.id;
      const result = await moveStock(queryClient, {
        catalogue,
        toPath: location.path,
        source: 'scan',
        lines: move.lines.map(({ product, quantity }) => ({
          productId: product.id,
          productName: product.name,
          from,
          to: location.id,
          quantity,
        })),
      });
      setMove(NO_MOVE);
      return {
        kind: 'moved',
        toPath: location.path,
        units: move.lines.reduce((sum, line) => sum + line.quantity, 0),
        message: result.queued ? undefined : result.message,
      };
    },
    [move, queryClient, catalogue],
  );

  const countIntoLine = useCountIntoLine(countInto, place);
  const receiveAgainstLine = useReceiveAgainstLine(receiveAgainst, place);

  const run = useCallback((task: () => Promise<ScanOutcome | undefined>) => {
    queue.current = queue.current.then(async () => {
      setBusy(true);
      try {
        const next = await task();
        if (next) setOutcome(next);
        if (next?.kind === 'received') {
          setTally((lines) => tallied(lines, next.product, next.quantity, 1));
        }
        if (next?.kind === 'countLine' && next.added !== undefined) {
          setTally((lines) => tallied(lines, next.product, next.added ?? 0, 1));
        }
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
        const found = await lookupCode(catalogue, code);
        if (!found) return { kind: 'unknown', code };
        if ('location' in found) {
          if (mode === 'move') return moveAt(found.location);
          setPlace(found.location);
          return { kind: 'place', location: found.location };
        }
        const { product } = found;
        if (lookUp) return void (await openProduct(product.id));
        if (mode === 'move') {
          if (!move.from) return { kind: 'failed', message: 'First scan where to take it from.' };
          const draft = addedTo(move, product, quantity);
          setMove(draft);
          const line = draft.lines.find((one) => one.product.id === product.id);
          return { kind: 'adding', product, quantity: line?.quantity ?? quantity };
        }
        if (mode === 'count' && countInto) return countIntoLine(product, quantity, true);
        if (mode === 'receive' && receiveAgainst) return receiveAgainstLine(product, quantity);
        const here = place && { location: place, quantity: await heldAt(product.id, place) };
        const change = CHANGES[mode];
        if (!change) return { kind: 'counting', product, here };
        const moved = 'delta' in change ? { ...change, delta: change.delta * quantity } : change;
        return {
          kind: 'changed',
          ...(await changeStock(product, moved, here)),
          undone: false,
        };
      }),
    [
      mode,
      run,
      openProduct,
      catalogue,
      changeStock,
      moveAt,
      move,
      place,
      heldAt,
      countInto,
      countIntoLine,
      receiveAgainst,
      receiveAgainstLine,
    ],
  );

  /** Count mode into a count: the line of the product just scanned set to what was counted. */
  const setLine = useCallback(
    (product: ProductListItem, counted: number) =>
      run(() => countIntoLine(product, counted, false)),
    [run, countIntoLine],
  );

  /** Count mode: the stock as counted, for the product just scanned. */
  const setCount = useCallback(
    (product: ProductListItem, count: number, here?: Here) =>
      run(async () => {
        const result = await changeStock(product, { count, reason: 'counted', note: NOTE }, here);
        return { kind: 'changed', ...result, undone: false };
      }),
    [run, changeStock],
  );

  const undo = useCallback(
    () =>
      run(async () => {
        if (outcome?.kind !== 'changed' || outcome.undone) return undefined;
        const result = await changeStock(
          outcome.saved,
          { delta: -outcome.delta, note: UNDO_NOTE },
          outcome.here,
        );
        return {
          ...outcome,
          product: result.product,
          saved: result.saved,
          undone: true,
          queued: result.queued,
          here: result.here,
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
    setLine,
    undo,
    ignored,
    clear: () => setOutcome(undefined),
    /** The current location, which Receive, Pick and Count apply at; cleared by clearPlace. */
    place,
    /** Whether the catalogue has locations besides its default one, to scan. */
    hasPlaces: (tree?.length ?? 0) > 1,
    clearPlace: () => setPlace(undefined),
    /** Move's draft: where from and what; clearMove starts again. */
    move,
    clearMove: () => setMove(NO_MOVE),
    removeFromMove: (productId: string) =>
      setMove((draft) => ({
        ...draft,
        lines: draft.lines.filter((line) => line.product.id !== productId),
      })),
  };
}
