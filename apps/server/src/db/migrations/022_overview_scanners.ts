import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * The overview's "app users who scanned" (distinct e-mails with a scan in a period) at a million
 * scans without reading one row per e-mail (issue 13). Each e-mail's scan days (011's
 * `overview_days` rows of topic 'email' with n > 0) are linked to the e-mail's previous scan day:
 *
 * - `overview_scanner_days (day, prev, n)`: how many e-mails scanned on `day` and, before it, last
 *   on `prev` (`''`: never before);
 * - `overview_scanner_months (month, prev, n)`: the same summed over the days of `month`;
 * - `overview_scanner_day_months (day, prev, n)`: the same with `prev` cut to its month ('YYYY-MM').
 *
 * An e-mail scanned in [a, b] exactly when one of its scan days in [a, b] has its previous scan
 * day before a (its first scan day of the period), so the distinct count of a period is
 * `sum(n) WHERE day in [a, b] AND prev < a` — over whole months from the month table and over the
 * edge days from the day-month table (previous months before a's) and the day table (previous days
 * of a's month before a): some 2,000 rows for any period, whatever the number of e-mails. The day
 * table holds at most one row per pair of days (135,000 at a million scans over 18 months).
 *
 * Kept by triggers on `overview_days` itself, so that whatever writes it (the scans' triggers, the
 * seed's bulk rebuild) keeps them in step: when an (e-mail, day) row starts or stops counting scans,
 * the pairs (day, prev), (next, day) and (next, prev) of that e-mail move. SQLite: per row, with the
 * (e-mail, day) index 011 made for this. PostgreSQL: per statement, the pairs of the e-mails touched
 * recomputed before and after (window `lag`), under transaction-scoped advisory locks on the
 * e-mails' stripes taken in order, so that two server processes adding days of the same e-mail
 * see each other's days in turn.
 */

/** Advisory lock class of this structure (PostgreSQL). */
const LOCK = 13022;
/**
 * E-mails are locked by stripe (a hash of the e-mail, 256 stripes): a transaction holds at most
 * 256 advisory locks however many e-mails an import writes (one per e-mail would exhaust the lock
 * table), at the cost of serialising two writers of unrelated e-mails of the same stripe.
 */
const STRIPES = 256;

export function overviewScannersMigration(dialect: Dialect) {
  const postgres = dialect === 'postgres';
  return {
    async up(db: Kysely<any>) {
      // Read as ranges of the primary key: SQLite stores the rows in its order (WITHOUT ROWID),
      // PostgreSQL's key carries the count (index-only reads, no scattered heap pages, which at a
      // few thousand rows made the planner pick parallel bitmap scans, 240 ms at load 12).
      for (const [table, bucket] of [
        ['overview_scanner_days', 'day'],
        ['overview_scanner_months', 'month'],
        ['overview_scanner_day_months', 'day'],
      ] as const) {
        await sql
          .raw(
            postgres
              ? `CREATE TABLE ${table} (${bucket} text NOT NULL, prev text NOT NULL, n bigint NOT NULL, CONSTRAINT ${table}_pk PRIMARY KEY (${bucket}, prev) INCLUDE (n))`
              : `CREATE TABLE ${table} (${bucket} text NOT NULL, prev text NOT NULL, n integer NOT NULL, CONSTRAINT ${table}_pk PRIMARY KEY (${bucket}, prev)) WITHOUT ROWID`,
          )
          .execute(db);
      }
      // E-mails that scanned already.
      const pairs = `SELECT day, coalesce(lag(day) OVER (PARTITION BY key ORDER BY day), '') AS prev
        FROM overview_days WHERE topic = 'email' AND n > 0`;
      await sql
        .raw(
          `INSERT INTO overview_scanner_days (day, prev, n) SELECT day, prev, count(*) FROM (${pairs}) p GROUP BY day, prev`,
        )
        .execute(db);
      await sql
        .raw(
          `INSERT INTO overview_scanner_months (month, prev, n) SELECT substr(day, 1, 7), prev, sum(n) FROM overview_scanner_days GROUP BY substr(day, 1, 7), prev`,
        )
        .execute(db);
      await sql
        .raw(
          `INSERT INTO overview_scanner_day_months (day, prev, n) SELECT day, substr(prev, 1, 7), sum(n) FROM overview_scanner_days GROUP BY day, substr(prev, 1, 7)`,
        )
        .execute(db);
      if (postgres) await postgresTriggers(db);
      else await sqliteTriggers(db);
      if (postgres)
        await sql`ANALYZE overview_scanner_days, overview_scanner_months, overview_scanner_day_months`.execute(
          db,
        );
    },
  };
}

const upsert = (table: string, bucket: string) =>
  `ON CONFLICT (${bucket}, prev) DO UPDATE SET n = ${table}.n + excluded.n`;

/**
 * SQLite: the pair moves of e-mail `e` starting (`sign` +1) or stopping (-1) to scan on day `d`,
 * when the row of (e, d) already says so: with p its previous scan day ('' if none) and q its next
 * (if any): (d, p) ± 1, (q, p) ∓ 1, (q, d) ± 1.
 */
function sqliteMove(e: string, d: string, sign: 1 | -1, when: string): string {
  const near = (fn: 'max' | 'min', op: '<' | '>') =>
    `(SELECT ${fn}(day) FROM overview_days WHERE topic = 'email' AND key = ${e} AND day ${op} ${d} AND n > 0)`;
  const moves = `SELECT CASE w WHEN 1 THEN ${d} ELSE q END AS b, CASE w WHEN 3 THEN ${d} ELSE p END AS pr,
      CASE w WHEN 2 THEN ${-sign} ELSE ${sign} END AS k
    FROM (SELECT coalesce(${near('max', '<')}, '') AS p, ${near('min', '>')} AS q) s,
      (SELECT 1 AS w UNION ALL SELECT 2 UNION ALL SELECT 3) ws
    WHERE (${when}) AND (w = 1 OR q IS NOT NULL)`;
  return `
    INSERT INTO overview_scanner_days (day, prev, n) SELECT b, pr, k FROM (${moves}) m WHERE true
      ${upsert('overview_scanner_days', 'day')};
    INSERT INTO overview_scanner_months (month, prev, n) SELECT substr(b, 1, 7), pr, k FROM (${moves}) m WHERE true
      ${upsert('overview_scanner_months', 'month')};
    INSERT INTO overview_scanner_day_months (day, prev, n) SELECT b, substr(pr, 1, 7), k FROM (${moves}) m WHERE true
      ${upsert('overview_scanner_day_months', 'day')};`;
}

async function sqliteTriggers(db: Kysely<any>) {
  const on = (r: 'new' | 'old') => `${r}.topic = 'email' AND ${r}.n > 0`;
  await sql
    .raw(
      `CREATE TRIGGER overview_scanners_ai AFTER INSERT ON overview_days WHEN ${on('new')} BEGIN ${sqliteMove('new.key', 'new.day', 1, 'true')} END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER overview_scanners_ad AFTER DELETE ON overview_days WHEN ${on('old')} BEGIN ${sqliteMove('old.key', 'old.day', -1, 'true')} END`,
    )
    .execute(db);
  // An update that changes whether (or which) (e-mail, day) counts: the old one stops, then the new one starts.
  const same = `old.topic IS new.topic AND old.key IS new.key AND old.day IS new.day AND (old.n > 0) = (new.n > 0)`;
  await sql
    .raw(
      `CREATE TRIGGER overview_scanners_au AFTER UPDATE ON overview_days WHEN (old.topic = 'email' OR new.topic = 'email') AND NOT (${same}) BEGIN
        ${sqliteMove('old.key', 'old.day', -1, on('old'))}
        ${sqliteMove('new.key', 'new.day', 1, on('new'))} END`,
    )
    .execute(db);
}

/**
 * PostgreSQL: one function for the three statement triggers. `flips` are the (e-mail, day) rows
 * that started (+1) or stopped (-1) counting; the e-mails' pairs are recomputed as they are now
 * and as they were (now, less the days started, plus the days stopped), and the difference added.
 */
async function postgresTriggers(db: Kysely<any>) {
  const counting = (rows: string, s: string) =>
    `SELECT key AS e, day AS d, ${s} AS s FROM ${rows} WHERE topic = 'email' AND n > 0`;
  const flipsOf: Record<string, string> = {
    INSERT: counting('new_rows', '1'),
    DELETE: counting('old_rows', '-1'),
    UPDATE: `SELECT e, d, sum(s) AS s FROM (${counting('new_rows', '1')} UNION ALL ${counting('old_rows', '-1')}) x GROUP BY e, d HAVING sum(s) <> 0`,
  };
  const body = (op: string) => {
    const flips = `flips AS (${flipsOf[op]})`;
    return `
    IF EXISTS (WITH ${flips} SELECT 1 FROM flips) THEN
      PERFORM pg_advisory_xact_lock(${LOCK}, x.stripe)
        FROM (WITH ${flips} SELECT DISTINCT hashtext(e) & ${STRIPES - 1} AS stripe FROM flips ORDER BY 1) x;
      -- A statement of its own: after the locks, the days other transactions committed are seen.
      WITH ${flips},
      es AS (SELECT DISTINCT e FROM flips),
      now_days AS (
        SELECT d.key AS e, d.day FROM overview_days d JOIN es ON d.key = es.e WHERE d.topic = 'email' AND d.n > 0),
      was_days AS (
        SELECT e, day FROM now_days n WHERE NOT EXISTS (SELECT 1 FROM flips f WHERE f.e = n.e AND f.d = n.day AND f.s > 0)
        UNION ALL SELECT e, d FROM flips WHERE s < 0),
      moves AS (
        SELECT day, prev, sum(k) AS k FROM (
          SELECT day, coalesce(lag(day) OVER (PARTITION BY e ORDER BY day), '') AS prev, 1 AS k FROM now_days
          UNION ALL
          SELECT day, coalesce(lag(day) OVER (PARTITION BY e ORDER BY day), '') AS prev, -1 AS k FROM was_days) x
        GROUP BY day, prev HAVING sum(k) <> 0),
      by_day AS (
        INSERT INTO overview_scanner_days (day, prev, n) SELECT day, prev, k FROM moves ORDER BY day, prev
        ${upsert('overview_scanner_days', 'day')}),
      by_day_month AS (
        INSERT INTO overview_scanner_day_months (day, prev, n)
          SELECT day, substr(prev, 1, 7), sum(k) FROM moves GROUP BY 1, 2 ORDER BY 1, 2
        ${upsert('overview_scanner_day_months', 'day')})
      INSERT INTO overview_scanner_months (month, prev, n)
        SELECT substr(day, 1, 7), prev, sum(k) FROM moves GROUP BY 1, 2 ORDER BY 1, 2
        ${upsert('overview_scanner_months', 'month')};
    END IF;`;
  };
  await sql
    .raw(`CREATE FUNCTION overview_scanners() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      IF TG_OP = 'INSERT' THEN ${body('INSERT')}
      ELSIF TG_OP = 'DELETE' THEN ${body('DELETE')}
      ELSE ${body('UPDATE')}
      END IF;
      RETURN NULL;
    END $fn$`)
    .execute(db);
  for (const [suffix, event, referencing] of [
    ['ai', 'INSERT', 'NEW TABLE AS new_rows'],
    ['ad', 'DELETE', 'OLD TABLE AS old_rows'],
    ['au', 'UPDATE', 'OLD TABLE AS old_rows NEW TABLE AS new_rows'],
  ] as const) {
    await sql
      .raw(
        `CREATE TRIGGER overview_scanners_${suffix} AFTER ${event} ON overview_days REFERENCING ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION overview_scanners()`,
      )
      .execute(db);
  }
}
