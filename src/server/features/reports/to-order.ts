/**
 * How many to order: enough to take the stock past the reorder point (a product at its point is
 * already due), less what is on order already, so nothing is ordered twice. A product that should
 * be ordered in larger lots says so with its own reorder quantity.
 */
export const toOrder = ({
  stock,
  reorderPoint,
  onOrder = 0,
}: {
  stock: number;
  reorderPoint: number;
  onOrder?: number;
}) => Math.max(0, reorderPoint + 1 - stock - onOrder);
