/** The zod-free values of users.ts (kept apart so the web app's first download takes them without zod). */
export const USERS_PATH = '/api/users';

export const USER_FACETS_PATH = '/api/users/facets';

export const USERS_PAGE_SIZE = 20;

/** The columns the Users Table sorts by; without `sort`, newest id first. */
export const USER_SORT_FIELDS = [
  'id',
  'email',
  'name',
  'phone',
  'country',
  'plan',
  'status',
  'device',
  'app_version',
  'created_at',
  'last_login_at',
] as const;
