/** Business constants shared by the server and the client. */
export const ACCESS_TOKEN_KEY = 'AccessToken';
export const TOAST_AUTO_CLOSE_MS = 5000;
export const CODE_LENGTH = 6;
export const CODE_TTL_MINUTES = 10;
export const CODE_MAX_TRIES = 5;
export const NAME_MAX = 50;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
/** Largest price we accept: keeps cents well inside a 64-bit integer and a JSON number. */
export const MIN_PRICE = 0.01;
export const MAX_PRICE = 99_999_999.99;
export const MAX_STOCK = 2_147_483_647;
export const MIN_FORM_STOCK = 1;
/** Stock from 1 up to this is "low" (the yellow count, and the list's `stock=low`). */
export const LOW_STOCK_THRESHOLD = 10;
export const PRODUCT_NAME_MAX = 200;
export const DESCRIPTION_MAX = 5000;
/** Characters of a search as typed (the folded form may be longer, see searchText). */
export const SEARCH_MAX = 200;
export const TOKEN_TTL_DAYS = 7;
export const PRODUCT_PAGE_DEFAULT = 50;
export const PRODUCT_PAGE_MAX = 100;
export const PRODUCT_SORTS = [
  'newest',
  'oldest',
  'name',
  'price-asc',
  'price-desc',
  'stock-asc',
  'stock-desc',
] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const IMAGE_MAX_PIXELS = 40_000_000;
export const IMAGE_MAX_EDGE = 1600;
/** The long edge of a product's thumbnail (never larger than the image itself). */
export const IMAGE_THUMBNAIL_EDGE = 480;
export const IMAGE_ACCEPTED_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/avif',
  'image/gif',
] as const;

/**
 * The stock filters of a fixed threshold: `low` is 1 to LOW_STOCK_THRESHOLD units, `out` is 0.
 * Each has its partial indexes (migration 011).
 */
export const STOCK_FILTERS = ['low', 'out'] as const;
export type ThresholdStockFilter = (typeof STOCK_FILTERS)[number];
/** The list's stock filters: the threshold ones, and `reorder` (at or below the reorder point). */
export const LIST_STOCK_FILTERS = [...STOCK_FILTERS, 'reorder'] as const;
export type StockFilter = (typeof LIST_STOCK_FILTERS)[number];

/** CSV import: the largest file, the most rows besides the header, and what its report lists. */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 50_000;
/**
 * One record of an import at most: its bytes (the largest product, 5,000 characters of 4 bytes
 * each, takes about 21 KB) and its cells (an export has a dozen columns).
 */
export const IMPORT_MAX_RECORD_BYTES = 64 * 1024;
export const IMPORT_MAX_CELLS = 1000;
/** Valid rows a report shows when asked for a preview (the import screen's first 20 rows). */
export const IMPORT_PREVIEW_ROWS = 20;
/** Errors a report lists at most; its message still counts every bad row. */
export const IMPORT_ERRORS_MAX = 1000;
/** What an import does with a row that matches an existing product (by id). */
export const IMPORT_MATCHES = ['update', 'skip', 'copy'] as const;
export type ImportMatches = (typeof IMPORT_MATCHES)[number];
/** The columns an import needs, in any order; other columns are ignored. */
export const IMPORT_COLUMNS = ['name', 'price', 'stock', 'description'] as const;
/** The columns an import reads when the file has them: a product's codes. */
export const IMPORT_OPTIONAL_COLUMNS = ['sku', 'barcode'] as const;
/** The columns of the stock-by-location CSV: a product, a location (its path), the quantity there. */
export const STOCK_BY_LOCATION_COLUMNS = [
  'id',
  'sku',
  'barcode',
  'name',
  'location',
  'quantity',
] as const;
/** The columns its import may name a product by (the first a row fills in), and all it reads. */
export const STOCK_IMPORT_PRODUCT_COLUMNS = ['id', 'sku', 'barcode'] as const;
export const STOCK_IMPORT_COLUMNS = [
  ...STOCK_IMPORT_PRODUCT_COLUMNS,
  'location',
  'quantity',
] as const;
/** What its header must name, in words (messages and the import screen). */
export const STOCK_IMPORT_COLUMNS_TEXT = 'location, quantity, and id, sku or barcode';
/** The columns of an export, in this order. */
export const EXPORT_COLUMNS = [
  'id',
  'name',
  'price',
  'stock',
  'description',
  'image',
  'createdAt',
  'updatedAt',
  'sku',
  'barcode',
  'tags',
  'cost',
  'reorderPoint',
  'reorderQuantity',
] as const;
/** How the export joins a product's tags in one cell, and the import splits them. */
export const CSV_TAG_SEPARATOR = ';';

/** A stock adjustment's note, at most this many characters. */
export const STOCK_NOTE_MAX = 500;
/** Where each recorded stock change came from; `count` set the stock to a counted number. */
export const MOVEMENT_SOURCES = ['create', 'edit', 'adjustment', 'count', 'import'] as const;
export type MovementSource = (typeof MOVEMENT_SOURCES)[number];
/** Why the stock changed, as the person who changed it says. */
export const STOCK_REASONS = [
  'received',
  'sold',
  'damaged',
  'returned',
  'counted',
  'other',
] as const;
export type StockReason = (typeof STOCK_REASONS)[number];
export const MOVEMENT_PAGE_DEFAULT = 20;
export const MOVEMENT_PAGE_MAX = 100;

/** A product's tags: at most this many, each 1 to TAG_MAX characters once trimmed. */
export const TAGS_MAX = 20;
export const TAG_MAX = 30;

/** Products one bulk delete takes at most. */
export const BULK_DELETE_MAX = 100;

/**
 * The `<meta name>` the server adds to the app's pages when it keeps a local mailbox (outside
 * production, without SMTP_URL) and the request may read it, so the app knows without asking.
 */
export const DEV_MAILBOX_META = 'stockroom-dev-mailbox';
/** The local mailbox's page: the app routes it, the server answers it only where the API answers. */
export const DEV_MAILBOX_PAGE = '/dev/mailbox';
/**
 * The service worker's cache of pictures (vite.config.ts), emptied when a session ends
 * (src/client/lib/query/image-cache.ts).
 */
export const IMAGE_CACHE_NAME = 'images';
