import { CODE_MAX } from './codes.js';
import { LABEL_LAYOUTS, LABELS_MAX } from './labels.js';
import {
  BULK_DELETE_MAX,
  CODE_LENGTH,
  DESCRIPTION_MAX,
  IMAGE_MAX_BYTES,
  IMAGE_MAX_PIXELS,
  IMPORT_COLUMNS,
  IMPORT_MATCHES,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_CELLS,
  IMPORT_MAX_RECORD_BYTES,
  IMPORT_MAX_ROWS,
  MAX_PRICE,
  MAX_STOCK,
  MOVEMENT_PAGE_MAX,
  NAME_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  PRODUCT_NAME_MAX,
  PRODUCT_PAGE_MAX,
  PRODUCT_SORTS,
  SEARCH_MAX,
  LIST_STOCK_FILTERS,
  STOCK_NOTE_MAX,
  STOCK_REASONS,
  TAG_MAX,
  TAGS_MAX,
} from './constants.js';

/** How the image limits read in messages and docs: "5 MB", "40 megapixels". */
export const IMAGE_MAX_MB_TEXT = `${IMAGE_MAX_BYTES / (1024 * 1024)} MB`;
export const IMAGE_MAX_PIXELS_TEXT = `${IMAGE_MAX_PIXELS / 1_000_000} megapixels`;
/** How the import limits read: "10 MB", "50,000". */
export const IMPORT_MAX_MB_TEXT = `${IMPORT_MAX_BYTES / (1024 * 1024)} MB`;
export const IMPORT_MAX_ROWS_TEXT = IMPORT_MAX_ROWS.toLocaleString('en-US');
const IMPORT_MAX_RECORD_KB_TEXT = `${IMPORT_MAX_RECORD_BYTES / 1024} KB`;
const IMPORT_MAX_CELLS_TEXT = IMPORT_MAX_CELLS.toLocaleString('en-US');

/** "1 product", "2 products", "50,000 products". */
const count = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** The sentence for a field left empty: 'Price is required'. */
const required = <Field extends string>(field: Field) => `${field} is required` as const;

/** The sentence for a text longer than its limit: 'Description must be at most 5000 characters'. */
const atMostCharacters = <Field extends string, Max extends number>(field: Field, max: Max) =>
  `${field} must be at most ${max} characters` as const;

/** The sentence for a number below its minimum: 'Stock must be greater than 0'. */
const greaterThanZero = <Field extends string>(field: Field) =>
  `${field} must be greater than 0` as const;

/**
 * Every user-facing text the API and the forms share, in one place: tests compare them word for
 * word, so a text changes here or nowhere.
 */
export const V = {
  nameRequired: required('Name'),
  nameMax: `Name must be less than ${NAME_MAX} characters`,
  emailRequired: required('Email'),
  emailInvalid: 'Email is not valid',
  passwordRequired: required('Password'),
  passwordLetter: 'Password must contain at least one letter',
  passwordNumber: 'Password must contain at least one number',
  passwordMin: `Password must be at least ${PASSWORD_MIN} characters`,
  passwordMax: atMostCharacters('Password', PASSWORD_MAX),
  confirmPasswordRequired: required('Confirm Password'),
  passwordsMismatch: 'Passwords do not match',
  codeInvalid: `The code must be exactly ${CODE_LENGTH} digits`,
  priceRequired: required('Price'),
  priceInvalid: 'The price of the product is required',
  priceMin: greaterThanZero('Price'),
  priceMax: `Price must be at most ${MAX_PRICE}`,
  priceDecimals: 'Price can have at most 2 decimals',
  stockRequired: required('Stock'),
  stockInvalid: 'The stock of the product is required',
  stockMin: greaterThanZero('Stock'),
  stockNegative: 'Stock cannot be negative',
  stockInteger: 'Stock must be a whole number',
  stockMax: 'Stock is too large',
  descriptionRequired: required('Description'),
  costInvalid: 'Cost must be an amount like 12.50 (or empty for none)',
  costNegative: 'Cost must be 0 or more',
  costMax: `Cost must be at most ${MAX_PRICE}`,
  costDecimals: 'Cost can have at most 2 decimals',
  tagsInvalid: `tags must be a list of at most ${TAGS_MAX} tags`,
  tagInvalid: `Each tag must be 1 to ${TAG_MAX} characters`,
  tagFilterInvalid: `tag must be 1 to ${TAG_MAX} characters`,
  locationFilterInvalid: 'location must be a location id',
  productNameMax: atMostCharacters('Name', PRODUCT_NAME_MAX),
  descriptionMax: atMostCharacters('Description', DESCRIPTION_MAX),
  limitInvalid: `limit must be a whole number from 1 to ${PRODUCT_PAGE_MAX}`,
  sortInvalid: `sort must be one of ${PRODUCT_SORTS.join(', ')}`,
  cursorInvalid: 'cursor is not valid',
  searchTooLong: `q must be at most ${SEARCH_MAX} characters (ligatures and similar characters count as the letters they stand for)`,
  imageOnly: 'Only image files are allowed',
  textNul: 'Text must not contain the NUL character',
  stockFilterInvalid: `stock must be one of ${LIST_STOCK_FILTERS.join(', ')}`,
  dryRunInvalid: 'dryRun must be true or false',
  previewInvalid: 'preview must be true or false',
  matchesInvalid: `matches must be one of ${IMPORT_MATCHES.join(', ')}`,
  deltaInvalid: `delta must be a whole number from -${MAX_STOCK} to ${MAX_STOCK}, other than 0`,
  countInvalid: `count must be a whole number from 0 to ${MAX_STOCK}`,
  locationIdInvalid: 'locationId must be a location id',
  deltaOrCount: 'Send exactly one of delta (a change) or count (the stock as counted)',
  reasonInvalid: `reason must be one of ${STOCK_REASONS.join(', ')}`,
  noteInvalid: `note must be text of at most ${STOCK_NOTE_MAX} characters`,
  movementLimitInvalid: `limit must be a whole number from 1 to ${MOVEMENT_PAGE_MAX}`,
  idsInvalid: `ids must be a list of 1 to ${BULK_DELETE_MAX} product ids`,
  idsRepeated: 'ids must not name a product twice',
  skuText: 'SKU must be text',
  skuMax: atMostCharacters('SKU', CODE_MAX),
  skuPrintable: 'SKU must not contain control characters or line breaks',
  barcodeText: 'Barcode must be text',
  barcodeMax: atMostCharacters('Barcode', CODE_MAX),
  barcodeAscii: 'Barcode must contain only letters, digits, spaces and ASCII punctuation',
  codeRequired: required('code'),
  codeMax: atMostCharacters('code', CODE_MAX),
  labelIdsInvalid: 'ids must be a comma-separated list of product ids',
  labelIdListInvalid: `ids must be a list of 1 to ${LABELS_MAX} product ids`,
  labelLayoutInvalid: `layout must be one of ${LABEL_LAYOUTS.join(', ')}`,
  labelCopiesInvalid: `copies must be a whole number from 1 to ${LABELS_MAX}`,
} as const;

export const M = {
  // accounts. The mail budget (at most one mail a minute and five an hour per address) may hold a
  // code back while the answer stays the same, so no text claims that a mail went: "is on its way
  // unless one was sent recently" is true either way (the code sent recently still works).
  signupDone: `Check your email for the ${CODE_LENGTH}-digit code to confirm your account.`,
  accountConfirmed: 'Account confirmed. You can log in now.',
  resendDone:
    'If that email belongs to an account waiting for confirmation, a new code is on its way unless one was sent recently.',
  forgotDone:
    'If that email belongs to an account, a code to reset the password is on its way unless one was sent recently.',
  loginDone: 'Logged in',
  badCredentials: 'Incorrect email or password',
  notConfirmed: `Your account is not confirmed yet. Enter the ${CODE_LENGTH}-digit code from your email: a new one is on its way unless one was sent recently.`,
  codeInvalid: 'The code is not valid or has expired',
  codeValid: 'Code accepted. Choose a new password.',
  passwordReset: 'Your password has been reset. You can log in now.',
  profileUpdated: 'Profile updated',
  emailChanged: 'Email changed. Use the new address to log in from now on.',
  emailTaken: 'That email is already used by another account',
  passwordChanged: 'Password changed',
  currentPasswordWrong: 'The current password is not correct',
  loggedOut: 'Logged out',
  unauthorized: 'You need to log in to continue',
  // products
  productCreated: 'Product created',
  productUpdated: 'Product updated',
  // The 'Deleted!' dialog shows this message as its text (one notice, not two).
  productDeleted: 'Your product has been deleted.',
  productNotFound: 'Product not found',
  locationNotFound: 'Location not found',
  stockAdjusted: 'Stock updated',
  stockAboveMax: `Stock cannot be more than ${MAX_STOCK}`,
  productsNotFound: 'Some of these products were not found: nothing was deleted',
  idempotencyKeyInvalid: 'Idempotency-Key must be 1 to 255 printable ASCII characters',
  idempotencyKeyReused:
    'This Idempotency-Key was already used for a different request: use a new key for a new change',
  skuTaken: 'Another product already has this SKU',
  barcodeTaken: 'Another product already has this barcode',
  // A location's code is never a product's code: a scan finds one thing.
  skuIsLocation: 'A location already has this SKU as its code',
  barcodeIsLocation: 'A location already has this barcode as its code',
  codeNotFound: 'No product has this code',
  labelsNotFound: 'Some of these products were not found: no labels were made',
  tooManyLabels: `At most ${LABELS_MAX.toLocaleString('en-US')} labels a request, copies included: choose fewer products or copies`,
  // CSV import
  importNotMultipart: 'Send the CSV file as multipart/form-data, in the field "file"',
  importNoFile: 'Choose a CSV file to import (the form field "file")',
  importOneFile: 'Send one CSV file at a time',
  importTooLarge: `The CSV file must be at most ${IMPORT_MAX_MB_TEXT}`,
  importTooManyRows: `The CSV file must have at most ${IMPORT_MAX_ROWS_TEXT} rows besides the header`,
  importEmpty: `The CSV file is empty: its first line must name the columns (${IMPORT_COLUMNS.join(', ')})`,
  importNoRows: 'The CSV file has a header but no products',
  importNotUtf8: 'The CSV file must be UTF-8 text: save it from the spreadsheet as "CSV UTF-8"',
  importUnclosedQuote: 'A quoted field that starts on this line is never closed',
  importBadQuote: 'A quote in a field must be doubled ("") and the field itself quoted',
  importMalformed: 'This line is not valid CSV',
  importRunning: 'An import of yours is still running: wait for it to finish, then try again',
  importsBusy: 'Too many imports are running right now: try again in a few seconds',
  // generic
  notFound: 'Not found',
  badJson: 'The request body is not valid JSON',
  badRequestUrl: 'The request URL is not valid',
  badHttp: 'The request is not valid HTTP',
  headersTooLarge:
    'The request address or headers are too long (a long list of ids goes in a request body)',
  requestTooSlow: 'The request took too long to arrive',
  expectationFailed: 'The Expect header is not supported',
  bodyRequired: 'The request body is required',
  bodyTooLarge: 'The request body is too large',
  unsupportedMedia: 'Unsupported content type',
  tooManyRequests: 'Too many requests. Please try again later.',
  liveStreamsPerUser: 'Too many open event streams for this account: close one, then try again.',
  liveStreamsFull: 'This server holds as many event streams as it can. Please try again shortly.',
  costlyWorkBusy:
    'The server is busy with other labels, exports and reports right now: try again in a few seconds',
  tooManyCodeAttempts: 'Too many code attempts. Please try again later.',
  internal: 'Something went wrong. Please try again.',
  notReady: 'The database is not reachable',
  serviceUnavailable: 'The service is briefly unavailable. Please try again in a few seconds.',
  imageTooLarge: `The image must be at most ${IMAGE_MAX_MB_TEXT}`,
  imageTooManyPixels: `The image must be at most ${IMAGE_MAX_PIXELS_TEXT}`,
  imageUnsupported: 'The file is not a supported image (JPEG, PNG, WebP, AVIF or GIF)',
  imageUnreadable: 'The file cannot be read as an image',
  oneImageOnly: 'Send at most one image',
  unknownPart: 'Unknown form field',
  duplicatePart: 'Each form field may be sent only once',
  badForm: 'The form data is not valid',
  // invitations to catalogues
  invitationRevoked: 'Invitation revoked',
  invitationDeclined: 'Invitation declined',
  invitationNotFound: 'Invitation not found',
  invitationExpired: 'This invitation has expired',
} as const;

/** Texts that carry a number or a name: built here, from the same words every time. */
export const T = {
  importMissingColumn: (column: string) => `The header row has no "${column}" column`,
  importRecordTooLong: (line: number) =>
    `Line ${line} starts a row of more than ${IMPORT_MAX_RECORD_KB_TEXT}: is a quote left open?`,
  importTooManyCells: (line: number) =>
    `Line ${line} has more than ${IMPORT_MAX_CELLS_TEXT} cells: a row may hold at most ${IMPORT_MAX_CELLS_TEXT}`,
  importRepeatedColumn: (column: string) => `The header row names the "${column}" column twice`,
  importSkuRepeated: (line: number) => `Line ${line} of the file has this SKU already`,
  importBarcodeRepeated: (line: number) => `Line ${line} of the file has this barcode already`,
  imported: (n: number) => `${count(n, 'product', 'products')} imported`,
  importChecked: (n: number) => `${count(n, 'product', 'products')} ready to import`,
  importCheckedWithErrors: (valid: number, bad: number) =>
    `${count(valid, 'product', 'products')} ready to import; ${count(bad, 'row has', 'rows have')} errors`,
  importPlanned: (created: number, updated: number, unchanged: number) =>
    `${count(created, 'product', 'products')} to create, ${updated.toLocaleString('en-US')} to update, ${unchanged.toLocaleString('en-US')} unchanged`,
  importPlannedWithErrors: (created: number, updated: number, unchanged: number, bad: number) =>
    `${count(created, 'product', 'products')} to create, ${updated.toLocaleString('en-US')} to update, ${unchanged.toLocaleString('en-US')} unchanged; ${count(bad, 'row has', 'rows have')} errors`,
  importDone: (created: number, updated: number, unchanged: number) =>
    `${count(created, 'product', 'products')} created, ${updated.toLocaleString('en-US')} updated, ${unchanged.toLocaleString('en-US')} unchanged`,
  importSameProduct: (line: number) => `Line ${line} already matches this product`,
  /** A quantity a user typed or a file holds (an order's line, a move, a count), out of range. */
  quantityInvalid: (min: 0 | 1) =>
    `Quantity must be a whole number from ${min} to ${MAX_STOCK.toLocaleString('en-US')}`,
  notAPrice: (value: string) =>
    `${JSON.stringify(value)} is not a price: use a dot for decimals, like 12.50`,
  importFailed: (rows: number) =>
    `Nothing was imported: ${count(rows, 'row has', 'rows have')} errors`,
  emailCodeSent: (newEmail: string, oldEmail: string) =>
    `Profile updated. Enter the ${CODE_LENGTH}-digit code sent to ${newEmail} to confirm your new email (a code is on its way unless one was sent recently); until then your email stays ${oldEmail}.`,
  stockBelowZero: (stock: number, delta: number) =>
    `Not enough stock: ${stock} in stock, cannot take away ${-delta}`,
  locationBelowZero: (held: number, delta: number) =>
    `Not enough stock at this location: ${held} there, cannot take away ${-delta}`,
  productsDeleted: (n: number) => `${count(n, 'product', 'products')} deleted`,
  labelSkipInvalid: (max: number) =>
    max === 0
      ? 'skip must be 0: this layout has one label a page'
      : `skip must be a whole number from 0 to ${max}: the labels of a sheet already used`,
  /** A GTIN (8, 12, 13 or 14 digits) whose last digit is not its check digit. */
  invitationSent: (email: string) => `Invitation sent to ${email}`,
  alreadyMember: (email: string) => `${email} is already a member`,
  invitationsPerDay: (perDay: number) =>
    `This catalogue has sent ${perDay} invitations today; try again tomorrow`,
  invitationsPerAccount: (perDay: number) =>
    `Your account has sent ${perDay} invitations in the last 24 hours, as many as an account may; try again later`,
  invitationsPerNewAccount: (perDay: number) =>
    `A new account may send ${perDay} invitations in its first day; try again later`,
  cataloguesPerAccount: (most: number) =>
    `You own ${most} catalogues besides your personal one, as many as an account may: delete one or hand it over first`,
  costlyWorkPerUser: (most: number) =>
    `You have ${most} labels, exports or reports in progress, as many as an account may: wait for one to finish, then try again`,
  joinedCatalogue: (name: string) => `You joined ${name}`,
  barcodeCheckDigit: (expected: number) =>
    `Barcode check digit is wrong: a GTIN of 8, 12, 13 or 14 digits with these digits ends in ${expected}`,
} as const;
