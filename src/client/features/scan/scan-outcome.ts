import type { ProductListItem } from '@shared/schemas/products.js';
import type { ScanLocation } from './api/lookup-code.js';

/** What a product holds at the current location, shown beside its stock. */
export interface Here {
  location: ScanLocation;
  quantity: number;
}

/** What the last scan did, as the screen shows it. */
export type ScanOutcome =
  | {
      kind: 'changed';
      product: ProductListItem;
      saved: ProductListItem;
      delta: number;
      undone: boolean;
      queued: boolean;
      here?: Here | undefined;
    }
  | { kind: 'counting'; product: ProductListItem; here?: Here | undefined }
  | {
      kind: 'countLine';
      product: ProductListItem;
      location: ScanLocation;
      /** What the line holds now (the server's), unless it waits to be sent. */
      counted: number | undefined;
      /** The units this scan added, or undefined when it set the line. */
      added: number | undefined;
      queued: boolean;
    }
  | {
      kind: 'received';
      product: ProductListItem;
      poNumber: string;
      locationPath: string;
      quantity: number;
      /** Of the product's line, after this scan (waiting receipts counted). */
      expected: number;
      ordered: number;
      /** Units received past what was ordered. */
      over: number;
      queued: boolean;
    }
  | { kind: 'place'; location: ScanLocation }
  | { kind: 'adding'; product: ProductListItem; quantity: number }
  | { kind: 'moved'; toPath: string; units: number; message: string | undefined }
  | { kind: 'unknown'; code: string }
  | { kind: 'ignored'; typed: string }
  | { kind: 'failed'; message: string };
