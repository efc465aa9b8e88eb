/*
 * Apart from the other schemas (a folder of its own): the build puts src/shared/schemas/*.ts in the
 * one chunk the signed-in list loads, and only the locations screens need these.
 */
import { z } from 'zod';
import { LABELS_MAX } from '../../labels.js';
import { hasNoNul, messageSchema } from '../common.js';
import { labelOptions, skipWithinThePage } from '../labels.js';
import { productResponseSchema, uuid } from '../products.js';

/** A location's name: 1 to 60 characters, unique among its siblings whatever the case. */
export const LOCATION_NAME_MAX = 60;
/** How deep the tree goes: a warehouse, an aisle, a shelf, a bin… at most 8 levels. */
export const LOCATION_DEPTH_MAX = 8;
/** Locations one catalogue may have. */
export const LOCATIONS_MAX = 10_000;
/** A location's scannable code: printable ASCII, what Code 128 carries and a scanner types. */
const LOCATION_CODE_MAX = 64;
/** What a path's names are joined with: `Warehouse / Aisle 3 / Shelf B`. */
export const PATH_SEPARATOR = ' / ';
export const PATH_MAX = LOCATION_DEPTH_MAX * (LOCATION_NAME_MAX + PATH_SEPARATOR.length);

/** Texts the API answers with (tests and screens read the same words). */
export const L = {
  nameRequired: 'Location name is required',
  nameMax: `Location name must be at most ${LOCATION_NAME_MAX} characters`,
  namePrintable: 'Location name must not contain control characters or line breaks',
  nameSeparator: `Location name must not contain " / ", start with "/ " or end with " /": " / " separates the names of a path`,
  codeText: 'Code must be text',
  codeMax: `Code must be at most ${LOCATION_CODE_MAX} characters`,
  codeAscii: 'Code must contain only letters, digits, spaces and ASCII punctuation',
  parentInvalid: 'Parent must be a location id, or null for a top-level location',
  notFound: 'Location not found',
  parentNotFound: 'Parent location not found',
  nameTaken: 'Another location in the same place already has this name',
  codeTaken: 'Another location already has this code',
  codeIsProduct: 'A product already has this code as its SKU or barcode',
  underItself: 'A location cannot be moved under itself or one of its sub-locations',
  tooDeep: `Locations can be nested at most ${LOCATION_DEPTH_MAX} levels deep`,
  tooMany: `A catalogue can have at most ${LOCATIONS_MAX.toLocaleString('en-US')} locations`,
  holdsStock: 'This location holds stock: move it elsewhere first',
  hasChildren: 'This location has sub-locations: move or delete them first',
  isDefault: 'The default location cannot be deleted',
  created: 'Location created',
  updated: 'Location updated',
  deleted: 'Location deleted',
  labelIdsInvalid: 'ids must be a comma-separated list of location ids',
  labelIdListInvalid: `ids must be a list of 1 to ${LABELS_MAX} location ids`,
  labelsNotFound: 'Some of these locations were not found: no labels were made',
  tooManyLabels: `At most ${LABELS_MAX.toLocaleString('en-US')} labels a request, copies included: choose fewer locations or copies`,
} as const;

/** Text with no control, format, private-use, unassigned or line-separator character. */
const PRINTABLE = /^[^\p{C}\p{Zl}\p{Zp}]+$/u;
/** Printable ASCII, space to tilde. */
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/**
 * A name that cannot make two locations' paths one: with none holding the separator, starting
 * with "/ " or ending with " /", a path splits into its names one way only (a top-level "A / B"
 * and B under A, or "A /" over "B" and A over "/ B", would each share one).
 */
const keepsPathsApart = (name: string) =>
  !name.includes(PATH_SEPARATOR) && !name.startsWith('/ ') && !name.endsWith(' /');

const locationNameSchema = z
  .string({ error: L.nameRequired })
  .trim()
  .min(1, { error: L.nameRequired })
  .refine((name) => [...name].length <= LOCATION_NAME_MAX, { error: L.nameMax })
  .refine((name) => hasNoNul(name) && PRINTABLE.test(name), { error: L.namePrintable })
  .refine(keepsPathsApart, { error: L.nameSeparator })
  .meta({ maxLength: LOCATION_NAME_MAX });

const locationCodeSchema = z
  .string({ error: L.codeText })
  .trim()
  .min(1, { error: L.codeText })
  .max(LOCATION_CODE_MAX, { error: L.codeMax })
  .regex(PRINTABLE_ASCII, { error: L.codeAscii });

const parentSchema = z
  .string({ error: L.parentInvalid })
  .trim()
  .min(1, { error: L.parentInvalid })
  .max(100, { error: L.parentInvalid })
  .nullable();

/** `POST …/locations`: a name, where it goes (none: at the top), its code (none: one is made). */
export const locationCreateSchema = z.object({
  name: locationNameSchema,
  parentId: parentSchema.optional().transform((parent) => parent ?? null),
  code: locationCodeSchema.optional(),
});
export type LocationCreate = z.output<typeof locationCreateSchema>;

/** `PATCH …/locations/{locationId}`: rename, move (`parentId`, null to the top), or recode. */
export const locationUpdateSchema = z.object({
  name: locationNameSchema.optional(),
  parentId: parentSchema.optional(),
  code: locationCodeSchema.optional(),
});
export type LocationUpdate = z.output<typeof locationUpdateSchema>;

export const locationParamsSchema = z.object({ locationId: uuid });

/**
 * A location as every member sees it. `path` is the names from the top, joined with ` / `;
 * `isDefault` marks the catalogue's default location, where stock without a location is; `units`
 * is what the location itself holds (its sub-locations' not counted).
 */
const locationSchema = z.object({
  id: uuid,
  name: z.string().meta({ maxLength: LOCATION_NAME_MAX }),
  parentId: uuid.nullable(),
  code: z.string().meta({ maxLength: LOCATION_CODE_MAX }),
  path: z.string().meta({ maxLength: PATH_MAX }),
  isDefault: z.boolean(),
  units: z.number().int().meta({ format: 'int64', minimum: 0 }),
});
export type Location = z.output<typeof locationSchema>;

export const locationsResponseSchema = z.object({
  locations: z.array(locationSchema).meta({ maxItems: LOCATIONS_MAX }),
});
export const locationResponseSchema = z.object({ location: locationSchema });
/** `GET …/products/lookup?code=`: the product with that barcode or SKU, else the location with that code. */
export const codeLookupResponseSchema = z.union([productResponseSchema, locationResponseSchema]);
export type CodeLookupResponse = z.output<typeof codeLookupResponseSchema>;
export const locationSavedSchema = messageSchema.extend({ location: locationSchema });

/** `GET …/locations/labels.pdf`: location ids, comma-separated, and how to lay the labels out. */
export const locationLabelsQuerySchema = z
  .object({
    ids: z
      .string({ error: L.labelIdsInvalid })
      .max(LABELS_MAX * 37, { error: L.labelIdsInvalid })
      .transform((text) => text.split(',').map((id) => id.trim()))
      .refine((ids) => ids.every((id) => id !== ''), { error: L.labelIdsInvalid })
      .meta({ description: 'Location ids, comma-separated' }),
    ...labelOptions,
  })
  .superRefine(skipWithinThePage);

/** The same as a JSON body, for selections too long for an address. */
export const locationLabelsBodySchema = z
  .object({
    ids: z
      .array(
        z
          .string({ error: L.labelIdListInvalid })
          .trim()
          .min(1, { error: L.labelIdListInvalid })
          .max(100, { error: L.labelIdListInvalid }),
        { error: L.labelIdListInvalid },
      )
      .min(1, { error: L.labelIdListInvalid })
      .max(LABELS_MAX, { error: L.labelIdListInvalid })
      .meta({ description: 'Location ids, in the order to print' }),
    ...labelOptions,
  })
  .superRefine(skipWithinThePage);
