/**
 * How many to order: up to twice the reorder point (a min/max rule, the point the minimum), and at
 * least enough to pass the point, so that a point of 0 or 1 still orders something; less what is
 * on order already, so nothing is ordered twice.
 */
export const toOrder = ({
  stock,
  reorderPoint,
  onOrder = 0,
}: {
  stock: number;
  reorderPoint: number;
  onOrder?: number;
}) => Math.max(0, Math.max(2 * reorderPoint, reorderPoint + 1) - stock - onOrder);
