import { z } from 'zod';
import { tokenResponseSchema, userSchema } from '../../../shared/schemas/auth.js';
import {
  errorSchema,
  fieldErrorSchema,
  messageSchema,
  validationErrorSchema,
} from '../../../shared/schemas/common.js';
import {
  bulkDeleteResponseSchema,
  importChangeSchema,
  importErrorSchema,
  importPreviewRowSchema,
  importReportSchema,
  movementsResponseSchema,
  productSummarySchema,
  stockMovementSchema,
} from '../../../shared/schemas/catalogue.js';
import { devMailSchema } from '../../../shared/schemas/dev-mail.js';
import { stockImportReportSchema } from '../../../shared/schemas/locations/stock-import.js';
import { preferencesSchema } from '../../../shared/schemas/preferences.js';
import {
  productListItemSchema,
  productListResponseSchema,
  productSchema,
} from '../../../shared/schemas/products.js';

/**
 * The shared shapes the OpenAPI document names once (components.schemas) and refers to wherever
 * they appear. The ids are given here, on the server, rather than with `.meta({ id })` in
 * src/shared: the client imports those files too, and a module evaluated again there (hot reload)
 * would register an id twice. A new shared shape that answers more than one route belongs here.
 */
const COMPONENTS = {
  Error: [errorSchema, 'Every error answer.'],
  ValidationError: [
    validationErrorSchema,
    'A 400: the first failing field on top, then each field.',
  ],
  FieldError: [fieldErrorSchema, 'One failing field: its dotted path and the message.'],
  Message: [messageSchema, 'What a change that returns nothing else answers.'],
  TokenResponse: [tokenResponseSchema, 'A new bearer token, valid for 7 days, revocable.'],
  User: [userSchema, 'The signed-in user.'],
  Preferences: [preferencesSchema, "The signed-in user's preferences."],
  ProductListItem: [productListItemSchema, 'A product as the list shows it.'],
  Product: [productSchema, 'A product with every field.'],
  ProductPage: [productListResponseSchema, 'A page of products; `nextCursor` is null on the last.'],
  DevMail: [devMailSchema, 'A mail of the local development mailbox.'],
  ProductSummary: [productSummarySchema, 'Count, units and value (dollars) of the filtered list.'],
  ImportReport: [
    importReportSchema,
    'What a CSV import created, updated and left unchanged (or would), and each bad cell.',
  ],
  ImportChange: [
    importChangeSchema,
    'A product a CSV import would update: its line, its id and each field before and after.',
  ],
  ImportError: [importErrorSchema, 'One bad cell of a CSV import: its line, column and message.'],
  StockImportReport: [
    stockImportReportSchema,
    'What a stock-by-location import changed and left unchanged (or would), and each bad cell.',
  ],
  ImportPreviewRow: [importPreviewRowSchema, 'A valid CSV row as the import would store it.'],
  StockMovement: [stockMovementSchema, 'One change of a product’s stock.'],
  StockMovementPage: [movementsResponseSchema, 'A page of stock movements, newest first.'],
  BulkDeleteResult: [bulkDeleteResponseSchema, 'How many products a bulk delete removed.'],
} satisfies Record<string, [z.ZodType, string]>;

/**
 * Names the shared shapes in zod's global registry, which fastify-type-provider-zod turns into
 * `$ref`s and components. Safe to call again: an id already given to the same schema stays, and
 * one left by an earlier copy of a module (tests import the app anew per file) is taken back.
 */
export function registerComponents() {
  const registry = z.globalRegistry;
  for (const [id, [schema, description]] of Object.entries(COMPONENTS)) {
    const holder = registry._idmap.get(id);
    if (holder === schema) continue;
    if (holder) registry.remove(holder);
    registry.add(schema, { ...registry.get(schema), id, description });
  }
}
