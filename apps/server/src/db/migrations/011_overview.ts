import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import { postgresStatementTriggers } from './004_list_counts.ts';

/**
 * The overview and the search (issue 13):
 * - `scan_dtcs (scan_id, dtc, scan_start_time)`: the fault codes decoded in each scan (the keys of
 *   every `decodedFaultArray` of `scans.decoded_array`, trimmed and upper-cased, once per scan),
 *   with the scan's start time so that "scans reporting P0300", newest first, reads one index.
 *   Kept by triggers on `scans` in the same transaction as every insert, update and delete,
 *   whatever inserts the scan; filled here for the scans already there. A decoded array that is
 *   not valid JSON, or not of the expected shape, gives no codes (never a failed insert).
 * - `overview_days (topic, key, day, n)` and `overview_months (topic, key, month, n)`: scans per
 *   day (and month) of their start time, by `segment` (of the scan's make; `other` when the make
 *   is unknown — moved to the make's segment when that make is added), `make`, `app_version`
 *   (`''` when not recorded), `email` (days only: who scanned when), and `dtc` (scans reporting
 *   the code). Kept exact by triggers like the list counters (004, 010): per row on SQLite, per
 *   statement with transition tables on PostgreSQL. A period's figures are sums over its whole
 *   months and its edge days instead of counts over a million scans.
 * - indexes for the search and the overview: scans by VIN, app users by creation time, imports by
 *   start time.
 */

/** Topics counted per day; those also counted per month. */
const SCAN_TOPICS = (x: string, segment: string) => [
  [`'segment'`, segment, false],
  [`'make'`, `${x}.make`, true],
  [`'app_version'`, `coalesce(${x}.app_version, '')`, true],
  [`'email'`, `${x}.email`, false],
];

const dayOf = (ref: string) => `substr(${ref}, 1, 10)`;
const monthOf = (ref: string) => `substr(${ref}, 1, 7)`;

/**
 * SQLite: the tables and condition that give the codes (`upper(trim(f.key))`) of one decoded
 * array `doc` (text that is not JSON, or not of the expected shape, gives none).
 */
const sqliteCodesFrom = (doc: string) => `
  json_each(CASE WHEN json_valid(${doc}) THEN CASE WHEN json_type(${doc}) = 'array' THEN ${doc} ELSE '[]' END ELSE '[]' END) e,
  json_each(CASE WHEN e.type = 'object' THEN CASE WHEN json_type(e.value, '$.decodedFaultArray') = 'object'
    THEN json_extract(e.value, '$.decodedFaultArray') ELSE '{}' END ELSE '{}' END) f
  WHERE f.key IS NOT NULL AND trim(f.key) <> '' AND length(f.key) <= 40`;
const sqliteCodes = (doc: string) => `SELECT DISTINCT upper(trim(f.key)) AS dtc FROM ${sqliteCodesFrom(doc)}`;

export function overviewMigration(dialect: Dialect) {
  const postgres = dialect === 'postgres';
  return {
    async up(db: Kysely<any>) {
      const count = postgres ? 'bigint' : 'integer';
      await db.schema
        .createTable('scan_dtcs')
        .addColumn('scan_id', 'integer', (c) => c.notNull())
        .addColumn('dtc', 'text', (c) => c.notNull())
        .addColumn('scan_start_time', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('scan_dtcs_pk', ['scan_id', 'dtc'])
        .execute();
      await db.schema
        .createTable('overview_days')
        .addColumn('topic', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('n', count, (c) => c.notNull())
        .addPrimaryKeyConstraint('overview_days_pk', ['topic', 'key', 'day'])
        .execute();
      await db.schema
        .createTable('overview_months')
        .addColumn('topic', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('month', 'text', (c) => c.notNull())
        .addColumn('n', count, (c) => c.notNull())
        .addPrimaryKeyConstraint('overview_months_pk', ['topic', 'key', 'month'])
        .execute();

      if (postgres) {
        // The codes of one decoded array; text that is not JSON gives none instead of an error.
        await sql
          .raw(`CREATE FUNCTION scan_dtc_codes(doc text) RETURNS SETOF text LANGUAGE plpgsql IMMUTABLE AS $fn$
          DECLARE j jsonb;
          BEGIN
            BEGIN
              j := doc::jsonb;
            EXCEPTION WHEN others THEN
              RETURN;
            END;
            IF j IS NULL OR jsonb_typeof(j) <> 'array' THEN RETURN; END IF;
            RETURN QUERY SELECT DISTINCT upper(btrim(k)) FROM jsonb_array_elements(j) e,
              jsonb_object_keys(CASE WHEN jsonb_typeof(e->'decodedFaultArray') = 'object'
                THEN e->'decodedFaultArray' ELSE '{}'::jsonb END) k
              WHERE btrim(k) <> '' AND length(k) <= 40;
          END $fn$`)
          .execute(db);
      }

      // Scans already there (a database seeded before this migration).
      if (postgres) {
        await sql
          .raw(
            `INSERT INTO scan_dtcs (scan_id, dtc, scan_start_time) SELECT s.id, c, s.scan_start_time FROM scans s CROSS JOIN LATERAL scan_dtc_codes(s.decoded_array) c`,
          )
          .execute(db);
      } else {
        await sql
          .raw(
            `INSERT INTO scan_dtcs (scan_id, dtc, scan_start_time) SELECT DISTINCT s.id, upper(trim(f.key)), s.scan_start_time FROM scans s, ${sqliteCodesFrom('s.decoded_array')}`,
          )
          .execute(db);
      }
      const segment = `coalesce((SELECT m.segment FROM makes m WHERE m.name = x.make), 'other')`;
      for (const [topic, value, monthly] of SCAN_TOPICS('x', segment)) {
        await sql
          .raw(
            `INSERT INTO overview_days (topic, key, day, n) SELECT ${topic}, k, d, count(*) FROM (SELECT ${value} AS k, ${dayOf('x.scan_start_time')} AS d FROM scans x) g GROUP BY k, d`,
          )
          .execute(db);
        if (monthly)
          await sql
            .raw(
              `INSERT INTO overview_months (topic, key, month, n) SELECT ${topic}, k, m, count(*) FROM (SELECT ${value} AS k, ${monthOf('x.scan_start_time')} AS m FROM scans x) g GROUP BY k, m`,
            )
            .execute(db);
      }
      await sql
        .raw(
          `INSERT INTO overview_days (topic, key, day, n) SELECT 'dtc', dtc, ${dayOf('scan_start_time')}, count(*) FROM scan_dtcs GROUP BY dtc, ${dayOf('scan_start_time')}`,
        )
        .execute(db);
      await sql
        .raw(
          `INSERT INTO overview_months (topic, key, month, n) SELECT 'dtc', dtc, ${monthOf('scan_start_time')}, count(*) FROM scan_dtcs GROUP BY dtc, ${monthOf('scan_start_time')}`,
        )
        .execute(db);

      // "Scans reporting P0300", newest first; the codes of a time range.
      await db.schema
        .createIndex('scan_dtcs_dtc_time')
        .on('scan_dtcs')
        .columns(['dtc', 'scan_start_time', 'scan_id'])
        .execute();
      // A period's counters in count order (the top codes of a day or month), and its sums, from the
      // index alone.
      await db.schema
        .createIndex('overview_days_rank')
        .on('overview_days')
        .columns(['topic', 'day', 'n', 'key'])
        .execute();
      await db.schema
        .createIndex('overview_months_rank')
        .on('overview_months')
        .columns(['topic', 'month', 'n', 'key'])
        .execute();
      // Who scanned in a period: one seek per e-mail, answered from this index alone.
      await sql
        .raw(
          `CREATE INDEX overview_days_scanners ON overview_days (key, day) WHERE topic = 'email' AND n > 0`,
        )
        .execute(db);
      await db.schema.createIndex('scans_vin_idx').on('scans').column('vin').execute();
      await db.schema.createIndex('app_users_created_at_idx').on('app_users').column('created_at').execute();
      await db.schema.createIndex('imports_started_at_idx').on('imports').column('started_at').execute();

      if (postgres) await postgresTriggers(db);
      else await sqliteTriggers(db);
      if (postgres) await sql`ANALYZE scan_dtcs, overview_days, overview_months`.execute(db);
    },
  };
}

const upsert = (table: 'overview_days' | 'overview_months') =>
  `ON CONFLICT (topic, key, ${table === 'overview_days' ? 'day' : 'month'}) DO UPDATE SET n = ${table}.n + excluded.n`;

async function sqliteTriggers(db: Kysely<any>) {
  const scanCounts = (alias: 'new' | 'old', sign: '+1' | '-1') => {
    const topics = SCAN_TOPICS(
      alias,
      `coalesce((SELECT m.segment FROM makes m WHERE m.name = ${alias}.make), 'other')`,
    );
    const union = (list: typeof topics) =>
      list.map(([t, v]) => `SELECT ${t} AS t, ${v} AS k`).join(' UNION ALL ');
    return `
      INSERT INTO overview_days (topic, key, day, n)
        SELECT t, k, ${dayOf(`${alias}.scan_start_time`)}, ${sign} FROM (${union(topics)}) WHERE true
        ${upsert('overview_days')};
      INSERT INTO overview_months (topic, key, month, n)
        SELECT t, k, ${monthOf(`${alias}.scan_start_time`)}, ${sign} FROM (${union(topics.filter((t) => t[2]))}) WHERE true
        ${upsert('overview_months')};`;
  };
  const addCodes = `
    INSERT INTO scan_dtcs (scan_id, dtc, scan_start_time)
      SELECT new.id, c.dtc, new.scan_start_time FROM (${sqliteCodes('new.decoded_array')}) c;`;
  const removeCodes = 'DELETE FROM scan_dtcs WHERE scan_id = old.id;';
  await sql
    .raw(
      `CREATE TRIGGER scans_overview_ai AFTER INSERT ON scans BEGIN ${addCodes} ${scanCounts('new', '+1')} END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER scans_overview_ad AFTER DELETE ON scans BEGIN ${removeCodes} ${scanCounts('old', '-1')} END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER scans_overview_au AFTER UPDATE OF id, scan_start_time, make, app_version, email, decoded_array ON scans BEGIN ${removeCodes} ${scanCounts('old', '-1')} ${addCodes} ${scanCounts('new', '+1')} END`,
    )
    .execute(db);

  const codeCounts = (alias: 'new' | 'old', sign: '+1' | '-1') => `
    INSERT INTO overview_days (topic, key, day, n) VALUES ('dtc', ${alias}.dtc, ${dayOf(`${alias}.scan_start_time`)}, ${sign})
      ${upsert('overview_days')};
    INSERT INTO overview_months (topic, key, month, n) VALUES ('dtc', ${alias}.dtc, ${monthOf(`${alias}.scan_start_time`)}, ${sign})
      ${upsert('overview_months')};`;
  await sql
    .raw(
      `CREATE TRIGGER scan_dtcs_overview_ai AFTER INSERT ON scan_dtcs BEGIN ${codeCounts('new', '+1')} END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER scan_dtcs_overview_ad AFTER DELETE ON scan_dtcs BEGIN ${codeCounts('old', '-1')} END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER scan_dtcs_overview_au AFTER UPDATE ON scan_dtcs BEGIN ${codeCounts('old', '-1')} ${codeCounts('new', '+1')} END`,
    )
    .execute(db);

  // A make added (or renamed, or moved to another segment, or removed): its scans' day counts move
  // between `other` and its segment.
  const moveMake = (name: string, from: string, to: string) => `
    INSERT INTO overview_days (topic, key, day, n)
      SELECT 'segment', ${to}, day, n FROM overview_days WHERE topic = 'make' AND key = ${name} AND n <> 0 AND true
      ${upsert('overview_days')};
    INSERT INTO overview_days (topic, key, day, n)
      SELECT 'segment', ${from}, day, -n FROM overview_days WHERE topic = 'make' AND key = ${name} AND n <> 0 AND true
      ${upsert('overview_days')};`;
  await sql
    .raw(
      `CREATE TRIGGER makes_overview_ai AFTER INSERT ON makes BEGIN ${moveMake('new.name', `'other'`, 'new.segment')} END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER makes_overview_ad AFTER DELETE ON makes BEGIN ${moveMake('old.name', 'old.segment', `'other'`)} END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER makes_overview_au AFTER UPDATE OF name, segment ON makes BEGIN ${moveMake('old.name', 'old.segment', `'other'`)} ${moveMake('new.name', `'other'`, 'new.segment')} END`,
    )
    .execute(db);
}

async function postgresTriggers(db: Kysely<any>) {
  await postgresStatementTriggers(db, 'scans', 'scans_overview', (rows, sign) => {
    const topics = SCAN_TOPICS('x', `coalesce(m.segment, 'other')`);
    const values = (list: typeof topics) => list.map(([t, v]) => `(${t}, ${v})`).join(', ');
    const from = `FROM ${rows} x LEFT JOIN makes m ON m.name = x.make`;
    const codes =
      rows === 'old_rows'
        ? 'DELETE FROM scan_dtcs d USING old_rows x WHERE d.scan_id = x.id;'
        : `INSERT INTO scan_dtcs (scan_id, dtc, scan_start_time)
             SELECT x.id, c, x.scan_start_time FROM new_rows x CROSS JOIN LATERAL scan_dtc_codes(x.decoded_array) c
             ORDER BY 1, 2;`;
    return `
      ${codes}
      INSERT INTO overview_days (topic, key, day, n)
        SELECT f.t, f.k, ${dayOf('x.scan_start_time')}, ${sign}count(*) ${from}
        CROSS JOIN LATERAL (VALUES ${values(topics)}) AS f(t, k)
        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
        ${upsert('overview_days')};
      INSERT INTO overview_months (topic, key, month, n)
        SELECT f.t, f.k, ${monthOf('x.scan_start_time')}, ${sign}count(*) ${from}
        CROSS JOIN LATERAL (VALUES ${values(topics.filter((t) => t[2]))}) AS f(t, k)
        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
        ${upsert('overview_months')};`;
  });
  await postgresStatementTriggers(
    db,
    'scan_dtcs',
    'scan_dtcs_overview',
    (rows, sign) => `
      INSERT INTO overview_days (topic, key, day, n)
        SELECT 'dtc', x.dtc, ${dayOf('x.scan_start_time')}, ${sign}count(*) FROM ${rows} x
        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
        ${upsert('overview_days')};
      INSERT INTO overview_months (topic, key, month, n)
        SELECT 'dtc', x.dtc, ${monthOf('x.scan_start_time')}, ${sign}count(*) FROM ${rows} x
        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
        ${upsert('overview_months')};`,
  );
  const moveMake = (name: string, from: string, to: string) => `
    INSERT INTO overview_days (topic, key, day, n)
      SELECT 'segment', ${to}, day, n FROM overview_days WHERE topic = 'make' AND key = ${name} AND n <> 0
      ORDER BY day ${upsert('overview_days')};
    INSERT INTO overview_days (topic, key, day, n)
      SELECT 'segment', ${from}, day, -n FROM overview_days WHERE topic = 'make' AND key = ${name} AND n <> 0
      ORDER BY day ${upsert('overview_days')};`;
  await sql
    .raw(`CREATE FUNCTION makes_overview() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      IF TG_OP IN ('DELETE', 'UPDATE') THEN ${moveMake('OLD.name', 'OLD.segment', `'other'`)} END IF;
      IF TG_OP IN ('INSERT', 'UPDATE') THEN ${moveMake('NEW.name', `'other'`, 'NEW.segment')} END IF;
      RETURN NULL;
    END $fn$`)
    .execute(db);
  await sql
    .raw(
      'CREATE TRIGGER makes_overview AFTER INSERT OR DELETE OR UPDATE OF name, segment ON makes FOR EACH ROW EXECUTE FUNCTION makes_overview()',
    )
    .execute(db);
}
