import { z } from 'zod';
import { DENSITIES, LIST_VIEW_LIMITS } from './views.constants.ts';

/*
 * Issue 12 items 3–6: an operator's own layout of each list (columns shown and their order, row
 * density), kept on the server so it follows them to another browser, and saved views (a list's
 * filters, sort and columns under a name, private or shared with every operator).
 *
 * A list is named by its key: the list's API path without `/api/` (`ScanDetail`, `users`), the
 * same key the web app's list engine derives from the declaration.
 */

const LIST_KEY = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** A list's key, as in a path parameter or a query. */
export const listKeySchema = z
  .string()
  .min(1, 'list must name a list')
  .max(LIST_VIEW_LIMITS.listKeyLength, `list is at most ${LIST_VIEW_LIMITS.listKeyLength} characters`)
  .regex(LIST_KEY, 'list may contain only letters, digits, dots, dashes and underscores');

export const listKeyParamsSchema = z.object({ list: listKeySchema });

const columnName = z
  .string()
  .min(1, 'a column name may not be empty')
  .max(LIST_VIEW_LIMITS.columnLength, `a column name is at most ${LIST_VIEW_LIMITS.columnLength} characters`);

const columnNames = z
  .array(columnName)
  .max(LIST_VIEW_LIMITS.columns, `a layout names at most ${LIST_VIEW_LIMITS.columns} columns`)
  .refine((names) => new Set(names).size === names.length, { error: 'a column is named twice' });

/**
 * The columns of a list as the operator arranged them: `order` the columns by header in the order
 * shown (columns not named keep their declared place), `hidden` those not shown.
 */
export const columnLayoutSchema = z.object({ order: columnNames, hidden: columnNames });
export type ColumnLayout = z.infer<typeof columnLayoutSchema>;

export const densitySchema = z.enum(DENSITIES, { error: 'density must be comfortable or compact' });
export type Density = z.infer<typeof densitySchema>;

/** One operator's preferences for one list; `columns: null` is the declared default. */
export const listPreferencesSchema = z.object({
  list: z.string(),
  columns: columnLayoutSchema.nullable(),
  density: densitySchema,
  updated_at: z.string().nullable(),
});
export type ListPreferences = z.infer<typeof listPreferencesSchema>;

/** `PUT`: the parts given are replaced; `columns: null` goes back to the declared columns. */
export const listPreferencesBodySchema = z
  .object({ columns: columnLayoutSchema.nullable().optional(), density: densitySchema.optional() })
  .strict();
export type ListPreferencesBody = z.infer<typeof listPreferencesBodySchema>;

const viewName = z
  .string()
  .trim()
  .min(1, 'a view needs a name')
  .max(LIST_VIEW_LIMITS.nameLength, `a view's name is at most ${LIST_VIEW_LIMITS.nameLength} characters`)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), {
    error: "a view's name may not contain control characters",
  });

/** The list's address query without `?` and without the page: `make=honda&sort=email&order=asc`. */
const viewQuery = z
  .string()
  .max(
    LIST_VIEW_LIMITS.queryLength,
    `a view's filters are at most ${LIST_VIEW_LIMITS.queryLength} characters`,
  )
  .refine((query) => !query.startsWith('?'), { error: "a view's query is written without the leading ?" });

export const savedViewSchema = z.object({
  id: z.number(),
  list: z.string(),
  name: z.string(),
  shared: z.boolean(),
  query: z.string(),
  columns: columnLayoutSchema.nullable(),
  owner_id: z.number(),
  owner_email: z.string().nullable(),
  /** Whether the signed-in operator may rename, update or delete it (its owner, or an admin for a shared one). */
  editable: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SavedView = z.infer<typeof savedViewSchema>;

export const savedViewListQuerySchema = z.object({ list: listKeySchema });
export const savedViewListSchema = z.object({ views: z.array(savedViewSchema) });
export type SavedViewList = z.infer<typeof savedViewListSchema>;

export const savedViewCreateSchema = z
  .object({
    list: listKeySchema,
    name: viewName,
    shared: z.boolean().default(false),
    query: viewQuery.default(''),
    columns: columnLayoutSchema.nullable().default(null),
  })
  .strict();
export type SavedViewCreate = z.input<typeof savedViewCreateSchema>;

export const savedViewPatchSchema = z
  .object({
    name: viewName.optional(),
    shared: z.boolean().optional(),
    query: viewQuery.optional(),
    columns: columnLayoutSchema.nullable().optional(),
  })
  .strict();
export type SavedViewPatch = z.infer<typeof savedViewPatchSchema>;

export const savedViewIdParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'the view id must be a whole number' })
    .int('the view id must be a whole number')
    .min(1, 'the view id must be a whole number of 1 or more')
    .max(2_147_483_647, 'there is no view with so large an id'),
});
