// The schemas of the list engine's own requests (preferences, saved views), fetched on demand
// alongside them (lib/api.ts `apiFetchParsedLater`): a list page's first download has no zod.
export { listPreferencesSchema, savedViewListSchema, savedViewSchema } from '@obd/contract';
