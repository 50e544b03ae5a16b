import { z } from 'zod';
import { pagingSchema, textFilter } from '../common/list.ts';
import { sortSchema } from '../common/sort.ts';
import { fromTime, toTime } from './filters.ts';
import { USER_SORT_FIELDS, USERS_PAGE_SIZE } from './users.constants.ts';

/** Email contains; plan and status exact, case-insensitive (decisions §2). */
export const userQuerySchema = pagingSchema(USERS_PAGE_SIZE).extend({
  ...sortSchema(USER_SORT_FIELDS).shape,
  email: textFilter,
  plan: textFilter,
  status: textFilter,
  /** Created on or after / on or before (issue 13: the Overview's new-users figure opens its period). */
  created_from: fromTime,
  created_to: toTime,
});
export type UserQuery = z.infer<typeof userQuerySchema>;

/**
 * The allow-list of app-user fields the dashboard shows (decisions §4): never tokens, password
 * hashes or purchase tokens. The Users Table builds its columns from these keys.
 */
export const userRowSchema = z.object({
  id: z.number(),
  email: z.string(),
  name: z.string().nullable(),
  phone: z.string().nullable(),
  country: z.string().nullable(),
  plan: z.string(),
  status: z.string(),
  device: z.string().nullable(),
  app_version: z.string().nullable(),
  created_at: z.string(),
  last_login_at: z.string().nullable(),
  subscription_ends_at: z.string().nullable(),
});
export type UserRow = z.infer<typeof userRowSchema>;
export const userListSchema = z.object({ users: z.array(userRowSchema), total: z.number() });
export const userFacetsSchema = z.object({ plans: z.array(z.string()), statuses: z.array(z.string()) });
