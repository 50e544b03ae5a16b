import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { keepDomains } from './027_list_email_domains.ts';

/**
 * Issue 12: 'gmail' with an end bound. 021's `list_end_days` holds each address's rows per end
 * month; the total of a fragment matching ~200,000 addresses was a count over the rows ending by
 * `to` (0.1–0.17 s at a million scans). Its e-mail rows get their domains' rows too, as 027 gave
 * `list_totals` and `list_pairs` (same triggers, same meaning): the fragment's rows ending before
 * `to`'s month are its domains' months plus its local-only addresses' months.
 */
export function listEndDayDomainsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await keepDomains(db, dialect, 'list_end_days');
    },
  };
}
