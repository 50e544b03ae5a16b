// The export ticket's schema, fetched alongside the request (lib/download.ts): a list page's first
// download, which has the download button, then has no zod.
export { exportTicketSchema } from '@obd/contract';
