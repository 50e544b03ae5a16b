import { daysBetween } from '@obd/contract';
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { num, type Period, rows, splitPeriod } from './repository.ts';

/** The overview's "app users who scanned" in a period: distinct e-mails, exactly. */

type Db = Kysely<Database>;

/**
 * The index of who scanned when on SQLite: 011's partial index; a database migrated by the first
 * version of 011 (without it) uses the primary key's, slower but the same answer.
 */
const scannersIndexOf = new WeakMap<Db, Promise<string>>();
function scannersIndex(db: Db): Promise<string> {
  let found = scannersIndexOf.get(db);
  if (!found) {
    found = rows<{ name: string }>(
      db,
      sql`SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'overview_days_scanners'`,
    ).then((r) => (r.length > 0 ? 'overview_days_scanners' : 'sqlite_autoindex_overview_days_1'));
    scannersIndexOf.set(db, found);
  }
  return found;
}

/**
 * Distinct e-mails with a scan in the period, exactly, without a distinct count over the period's
 * scans. For each e-mail that ever scanned (004's counters list them, ~2,000 rows): does its row
 * of 007's per-month counts (`list_totals.months`) name a whole month of the period — one JSON
 * read of the row in hand — or, failing that, does it have a day counter in an edge range of the
 * period (one seek of 011's partial (e-mail, day) index per edge range). A period of whole months
 * reads no day counter at all; most e-mails of a long period are answered by their months.
 */
export async function scanningUsers(
  db: Db,
  dialect: Dialect,
  period: Period,
  scans: Promise<number>,
): Promise<number> {
  const split = splitPeriod(period);
  // The period's (e-mail, day) counters are at most its scans; the e-mails to probe, at most the
  // app users (020's counters). With many users (a million) a month's scans are far fewer.
  const fewDays = async () => {
    if (!split.months && daysBetween(period.from, period.to) <= 14) return true;
    const [users] = await rows<{ n: unknown }>(
      db,
      sql`SELECT sum(n) AS n FROM user_counts WHERE col = 'plan' AND day = ''`,
    );
    return (await scans) <= num(users?.n);
  };
  if (await fewDays()) {
    // Fewer (e-mail, day) counters in the period than e-mails to probe: distinct over them.
    const [few] = await rows<{ n: unknown }>(
      db,
      sql`SELECT count(DISTINCT key) AS n FROM overview_days WHERE topic = 'email' AND day >= ${period.from} AND day <= ${period.to} AND n > 0`,
    );
    return num(few?.n);
  }
  // SQLite would otherwise read the period's rows of every e-mail through the (topic, day) index,
  // once per e-mail: the e-mail's own range (migration 011's partial index) is the seek meant here.
  const byKey = dialect === 'sqlite' ? sql.raw(` INDEXED BY ${await scannersIndex(db)}`) : sql``;
  const tests = [
    ...(split.months
      ? [
          dialect === 'postgres'
            ? sql`EXISTS (SELECT 1 FROM jsonb_each_text(t.months) m WHERE m.key >= ${split.months[0]} AND m.key <= ${split.months[1]} AND m.value::bigint > 0)`
            : sql`EXISTS (SELECT 1 FROM json_each(t.months) m WHERE m.key >= ${split.months[0]} AND m.key <= ${split.months[1]} AND m.value > 0)`,
        ]
      : []),
    ...split.days.map(
      ([a, b]) =>
        sql`EXISTS (SELECT 1 FROM overview_days d${byKey} WHERE d.topic = 'email' AND d.key = t.val AND d.day >= ${a} AND d.day <= ${b} AND d.n > 0)`,
    ),
  ];
  const [r] = await rows<{ n: unknown }>(
    db,
    sql`SELECT count(*) AS n FROM list_totals t WHERE t.tbl = 'scans' AND t.col = 'email' AND t.n > 0
      AND (${sql.join(tests, sql` OR `)})`,
  );
  return num(r?.n);
}
