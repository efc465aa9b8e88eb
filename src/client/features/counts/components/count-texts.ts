import type { Count, CountStatus } from '@shared/schemas/counts/counts.js';

const STATUS: Record<CountStatus, string> = {
  open: 'Open',
  review: 'In review',
  posted: 'Posted',
  cancelled: 'Cancelled',
};

export const statusText = (status: CountStatus) => STATUS[status];

/** What a count covers, in words: 'Warehouse / Aisle 3 and below', 'Tag: lamps'. */
export function scopeText(scope: Count['scope']) {
  switch (scope.kind) {
    case 'location':
      return `${scope.path ?? 'A deleted location'} and below`;
    case 'tag':
      return `Tag: ${scope.tag}`;
    case 'catalogue':
      return 'Whole catalogue';
  }
}

/** '+3', '-2', '0'. */
export const signed = (value: number) => (value > 0 ? `+${value}` : `${value}`);
