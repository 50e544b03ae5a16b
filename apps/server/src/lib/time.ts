/** The one time format stored in the database: ISO-8601 in UTC, so text order is time order. */
export const isoNow = () => new Date().toISOString();
export const isoIn = (ms: number) => new Date(Date.now() + ms).toISOString();
