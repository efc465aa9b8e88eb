import { useState } from 'react';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { Link } from 'react-router';
import type { ProductListItem } from '@shared/schemas/products.js';
import { Button } from '@/components/ui/Button.js';
import { TextField } from '@/components/ui/Field.js';
import { ignoredScanText } from '@/lib/keyboard-burst.js';
import { paths } from '@/lib/paths.js';
import { formatCount, formatUnits } from '@/lib/format.js';
import type { Here, ScanOutcome } from '../use-scan-session.js';
import { UnknownCode } from './UnknownCode.js';

interface ScanOutcomePanelProps {
  outcome: ScanOutcome | undefined;
  busy: boolean;
  onUndo: () => void;
  onCount: (product: ProductListItem, count: number, here?: Here) => void;
  /** Count mode into a count: the scanned product's line set to what was counted. */
  onSetLine: (product: ProductListItem, counted: number) => void;
}

const changeText = (delta: number, undone: boolean) => {
  if (undone) return 'Undone';
  if (delta > 0) return `Added ${delta}`;
  if (delta < 0) return `Took ${-delta}`;
  return 'No change';
};

/** The product as the shelf shows it: its photo, name and SKU, to check the right one was read. */
function ProductLine({ product, here }: { product: ProductListItem; here?: Here | undefined }) {
  const catalogue = useCatalogueRef();
  return (
    <div className="flex min-w-0 items-start gap-3">
      <img
        src={product.thumbnail}
        alt={product.name}
        width={64}
        height={64}
        className="size-16 shrink-0 rounded-md bg-gray-100 object-cover"
      />
      <div className="min-w-0">
        <Link
          to={paths.products.details.getHref(product.id, catalogue)}
          className="line-clamp-2 text-lg font-semibold wrap-anywhere text-gray-900 hover:underline"
        >
          {product.name}
        </Link>
        {product.sku && <p className="font-mono text-sm break-all text-gray-700">{product.sku}</p>}
        <p className="text-base text-gray-900">
          Stock: <strong data-testid="scan-stock">{product.stock}</strong>
        </p>
        {here && (
          <p className="text-base text-gray-900">
            At {here.location.path}: <strong data-testid="scan-here">{here.quantity}</strong>
          </p>
        )}
      </div>
    </div>
  );
}

function CountForm({
  product,
  here,
  busy,
  onCount,
  label = here ? `Counted at ${here.location.path}` : 'Counted',
}: {
  product: ProductListItem;
  here: Here | undefined;
  label?: string;
} & Pick<ScanOutcomePanelProps, 'busy' | 'onCount'>) {
  const [counted, setCounted] = useState('');
  const value = Number(counted);
  const valid = counted.trim() !== '' && Number.isInteger(value) && value >= 0;
  return (
    <form
      className="flex items-end gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        if (valid) onCount(product, value, here);
      }}
    >
      <TextField
        label={label}
        type="number"
        inputMode="numeric"
        min={0}
        step={1}
        className="w-32"
        value={counted}
        onChange={(event) => setCounted(event.target.value)}
        autoFocus={label !== LINE_LABEL}
      />
      <Button type="submit" disabled={!valid} busy={busy} busyLabel="Setting...">
        Set
      </Button>
    </form>
  );
}

const LINE_LABEL = 'Set the line to';

/** A scan counted into a count: what its line holds now, and the way to set it outright. */
function CountLineOutcome({
  outcome,
  busy,
  onSetLine,
}: {
  outcome: Extract<ScanOutcome, { kind: 'countLine' }>;
} & Pick<ScanOutcomePanelProps, 'busy' | 'onSetLine'>) {
  const { product, location, counted, added, queued } = outcome;
  return (
    <div
      data-testid="scan-result"
      className="space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-gray-200"
    >
      <div className="flex items-start justify-between gap-3">
        <ProductLine product={product} />
        <p className="shrink-0 text-sm font-medium text-gray-700">
          {added === undefined ? 'Line set' : `Counted +${added}`}
          {queued && <span className="block text-xs text-amber-800">Waiting to be sent</span>}
        </p>
      </div>
      <p className="text-base text-gray-900">
        Counted at {location.path}:{' '}
        <strong data-testid="scan-line">
          {counted ?? (added === undefined ? '' : `+${added}`)}
        </strong>
      </p>
      <CountForm
        key={`${product.id}:${location.id}`}
        product={product}
        here={undefined}
        busy={busy}
        label={LINE_LABEL}
        onCount={(scanned, value) => onSetLine(scanned, value)}
      />
    </div>
  );
}

/** What the last scan found and did, with the way to take it back. */
export function ScanOutcomePanel({
  outcome,
  busy,
  onUndo,
  onCount,
  onSetLine,
}: ScanOutcomePanelProps) {
  if (!outcome) {
    return <p className="text-sm text-gray-600">Point the camera at a barcode or QR code.</p>;
  }
  if (outcome.kind === 'failed') {
    return (
      <p role="alert" className="text-base font-medium text-red-700">
        {outcome.message}
      </p>
    );
  }
  if (outcome.kind === 'ignored') {
    return (
      <p role="alert" className="text-base font-medium text-red-700">
        {ignoredScanText(outcome.typed)}
      </p>
    );
  }
  if (outcome.kind === 'unknown') return <UnknownCode code={outcome.code} />;
  if (outcome.kind === 'place') {
    return (
      <p data-testid="scan-result" className="text-base font-medium text-gray-900">
        Location: {outcome.location.path}
      </p>
    );
  }
  if (outcome.kind === 'countLine') {
    return <CountLineOutcome outcome={outcome} busy={busy} onSetLine={onSetLine} />;
  }
  if (outcome.kind === 'received') return <ReceivedOutcome outcome={outcome} />;
  if (outcome.kind === 'moved') {
    return (
      <p data-testid="scan-result" className="text-base font-medium text-gray-900">
        {outcome.message ?? `Move of ${formatUnits(outcome.units)} to ${outcome.toPath}`}
        {!outcome.message && (
          <span className="block text-sm text-amber-800">Waiting to be sent</span>
        )}
      </p>
    );
  }
  return (
    <div
      data-testid="scan-result"
      className="space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-gray-200"
    >
      <div className="flex items-start justify-between gap-3">
        <ProductLine
          product={outcome.product}
          here={outcome.kind === 'adding' ? undefined : outcome.here}
        />
        {outcome.kind === 'changed' && (
          <p className="shrink-0 text-sm font-medium text-gray-700">
            {changeText(outcome.delta, outcome.undone)}
            {outcome.queued && (
              <span className="block text-xs text-amber-800">Waiting to be sent</span>
            )}
          </p>
        )}
        {outcome.kind === 'adding' && (
          <p className="shrink-0 text-sm font-medium text-gray-700">{outcome.quantity} to move</p>
        )}
      </div>
      {outcome.kind === 'counting' && (
        <CountForm
          key={outcome.product.id}
          product={outcome.product}
          here={outcome.here}
          busy={busy}
          onCount={onCount}
        />
      )}
      {outcome.kind === 'changed' && !outcome.undone && outcome.delta !== 0 && (
        <Button variant="secondary" onClick={onUndo} disabled={busy}>
          Undo
        </Button>
      )}
    </div>
  );
}

/** A scan received against an order: how many, where, and what of the line is still expected. */
function ReceivedOutcome({ outcome }: { outcome: Extract<ScanOutcome, { kind: 'received' }> }) {
  return (
    <div
      data-testid="scan-result"
      className="space-y-1 rounded-lg bg-white p-4 shadow-sm ring-1 ring-gray-200"
    >
      <p className="text-base font-semibold wrap-anywhere text-gray-900">
        +{formatCount(outcome.quantity)} {outcome.product.name}
      </p>
      <p className="text-sm text-gray-700">
        Received against {outcome.poNumber} at {outcome.locationPath}
      </p>
      <p className="text-base font-medium text-gray-900">
        {outcome.expected > 0
          ? `Still expected: ${formatCount(outcome.expected)}`
          : 'All of this line is in'}
      </p>
      {outcome.over > 0 && (
        <p className="text-sm font-medium text-amber-800">
          More than ordered: {formatCount(outcome.ordered + outcome.over)} of{' '}
          {formatCount(outcome.ordered)}
        </p>
      )}
      {outcome.queued && <p className="text-sm text-amber-800">Waiting to be sent</p>}
    </div>
  );
}
