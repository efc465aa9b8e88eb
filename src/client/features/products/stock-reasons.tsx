import { STOCK_REASONS, type StockReason } from '@shared/constants.js';

/** How each reason for a stock change reads on screen. */
export const REASON_LABELS: Record<StockReason, string> = {
  received: 'Received',
  sold: 'Sold',
  damaged: 'Damaged',
  returned: 'Returned',
  counted: 'Counted',
  other: 'Other',
};

/** The options of a reason select: `none` (the empty value) first, then every reason. */
export function ReasonOptions({ none }: { none: string }) {
  return (
    <>
      <option value="">{none}</option>
      {STOCK_REASONS.map((reason) => (
        <option key={reason} value={reason}>
          {REASON_LABELS[reason]}
        </option>
      ))}
    </>
  );
}
