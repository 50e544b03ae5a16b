import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Issue 12, a contains filter on the e-mail matching a large part of the addresses ('gmail': a
 * third of a million scans, ~200,000 addresses among ~600,000 at a million app users): its exact
 * total was the sum of every matching address's counter (170 ms on SQLite, 300 ms on
 * PostgreSQL), and with a second filter the sum of every matching address's pair counter with
 * it (110–460 ms on PostgreSQL).
 *
 * An address is split at its first '@' into a local part and a domain. A fragment without '@'
 * cannot straddle that '@', so the addresses containing it are those whose domain contains it
 * plus those whose local part does (and domain does not). So:
 * - the counters of 004 (`list_totals`) and 017 (`list_pairs`) get a row per domain beside the
 *   rows per address: column `email@` (`user_email@`), value the domain, the sum of its
 *   addresses' counters; kept by triggers on the counter tables themselves, from the address
 *   rows' changes (one more counter row per address counter row written);
 * - the local parts get a trigram index: SQLite an FTS5 table keyed by the address row's rowid,
 *   PostgreSQL a trigram GIN index on `split_part(val, '@', 1)` of the e-mail counter rows.
 * 'gmail' then sums a handful of domain counters and the few addresses with 'gmail' before the
 * '@' (`modules/operations/emailDomains.ts`).
 */

/** Frozen: the counted e-mail columns of the activity tables (004). */
const EMAIL_COLUMNS = ['email', 'user_email'] as const;
const emails = EMAIL_COLUMNS.map((c) => `'${c}'`).join(', ');

/** SQL of an address's domain (after its first '@') and local part (before it, or all of it). */
function parts(dialect: Dialect) {
  return dialect === 'postgres'
    ? {
        at: (v: string) => `strpos(${v}, '@')`,
        domain: (v: string) => `substr(${v}, strpos(${v}, '@') + 1)`,
        local: (v: string) => `split_part(${v}, '@', 1)`,
      }
    : {
        at: (v: string) => `instr(${v}, '@')`,
        domain: (v: string) => `substr(${v}, instr(${v}, '@') + 1)`,
        local: (v: string) =>
          `CASE WHEN instr(${v}, '@') > 0 THEN substr(${v}, 1, instr(${v}, '@') - 1) ELSE ${v} END`,
      };
}

/**
 * The columns of a counter row (over alias `r`) with the e-mail side replaced by its domain:
 * `list_totals` (col, val), `list_end_days` (col, val, day) or `list_pairs` (a, b, av, bv). Only one side of a pair is ever an
 * e-mail (one e-mail column per table), and `email@` sorts where `email` did among the others.
 */
function domainRow(dialect: Dialect, table: CounterTable, r: string) {
  const { at, domain } = parts(dialect);
  if (table !== 'list_pairs')
    return {
      key: `${r}.tbl, ${r}.col || '@', ${domain(`${r}.val`)}${table === 'list_end_days' ? `, ${r}.day` : ''}`,
      isAddress: `${r}.col IN (${emails}) AND ${at(`${r}.val`)} > 0`,
    };
  const side = (c: string, v: string) => ({
    col: `CASE WHEN ${r}.${c} IN (${emails}) THEN ${r}.${c} || '@' ELSE ${r}.${c} END`,
    val: `CASE WHEN ${r}.${c} IN (${emails}) THEN ${domain(`${r}.${v}`)} ELSE ${r}.${v} END`,
  });
  const [a, b] = [side('a', 'av'), side('b', 'bv')];
  return {
    key: `${r}.tbl, ${a.col}, ${b.col}, ${a.val}, ${b.val}`,
    isAddress: `((${r}.a IN (${emails}) AND ${at(`${r}.av`)} > 0) OR (${r}.b IN (${emails}) AND ${at(`${r}.bv`)} > 0))`,
  };
}

/** The counter tables and their keys (028 adds 021's `list_end_days`, keyed by end day too). */
const COLUMNS = {
  list_totals: 'tbl, col, val',
  list_pairs: 'tbl, a, b, av, bv',
  list_end_days: 'tbl, col, val, day',
} as const;
type CounterTable = keyof typeof COLUMNS;

/**
 * The domain rows of `table`: the rows already there summed per domain (before the triggers,
 * which would count them again), then the triggers that keep them.
 */
export async function keepDomains(db: Kysely<any>, dialect: Dialect, table: CounterTable) {
  const keys = COLUMNS[table];
  const { key, isAddress } = domainRow(dialect, table, 'r');
  await sql
    .raw(
      `INSERT INTO ${table} (${keys}, n) SELECT ${key}, sum(r.n) FROM ${table} r WHERE ${isAddress} GROUP BY ${key}`,
    )
    .execute(db);
  if (dialect === 'sqlite') await sqliteTriggers(db, table);
  else await postgresTriggers(db, table);
}

export function listEmailDomainsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      const { local } = parts(dialect);
      for (const table of ['list_totals', 'list_pairs'] as const) await keepDomains(db, dialect, table);
      if (dialect === 'sqlite') {
        // A plain FTS5 table (it keeps its own copy of the local parts: they are no column of
        // list_totals for an external-content table to read), rowid = the address row's rowid.
        await sql`CREATE VIRTUAL TABLE list_locals_search USING fts5(local, tokenize='trigram')`.execute(db);
        await sql
          .raw(
            `INSERT INTO list_locals_search (rowid, local) SELECT rowid, ${local('val')} FROM list_totals WHERE col IN (${emails})`,
          )
          .execute(db);
        // Values never change once a counter row exists (026 says why an UPDATE is followed too).
        await sql
          .raw(`CREATE TRIGGER list_locals_search_ai AFTER INSERT ON list_totals WHEN new.col IN (${emails}) BEGIN
            INSERT INTO list_locals_search (rowid, local) VALUES (new.rowid, ${local('new.val')}); END`)
          .execute(db);
        await sql
          .raw(`CREATE TRIGGER list_locals_search_ad AFTER DELETE ON list_totals WHEN old.col IN (${emails}) BEGIN
            DELETE FROM list_locals_search WHERE rowid = old.rowid; END`)
          .execute(db);
        await sql
          .raw(`CREATE TRIGGER list_locals_search_au AFTER UPDATE OF val ON list_totals WHEN old.col IN (${emails}) OR new.col IN (${emails}) BEGIN
            DELETE FROM list_locals_search WHERE rowid = old.rowid;
            INSERT INTO list_locals_search (rowid, local) SELECT new.rowid, ${local('new.val')} WHERE new.col IN (${emails}); END`)
          .execute(db);
      } else {
        await sql
          .raw(
            `CREATE INDEX list_totals_local_trgm ON list_totals USING gin (${local('val')} gin_trgm_ops) WHERE col IN (${emails})`,
          )
          .execute(db);
        await sql`ANALYZE list_totals, list_pairs`.execute(db);
      }
    },
  };
}

/**
 * SQLite, per counter row: its change of n added to its domain row. recursive_triggers is off,
 * so the domain row's own insert does not fire this trigger again (and the update trigger's
 * condition is false for it).
 */
async function sqliteTriggers(db: Kysely<any>, table: CounterTable) {
  const keys = COLUMNS[table];
  const add = (alias: 'new' | 'old', delta: string) => {
    const { key } = domainRow('sqlite', table, alias);
    return `INSERT INTO ${table} (${keys}, n) VALUES (${key}, ${delta})
      ON CONFLICT (${keys}) DO UPDATE SET n = n + excluded.n;`;
  };
  const when = (alias: 'new' | 'old') => domainRow('sqlite', table, alias).isAddress;
  await sql
    .raw(
      `CREATE TRIGGER ${table}_domains_ai AFTER INSERT ON ${table} WHEN ${when('new')} BEGIN ${add('new', 'new.n')} END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER ${table}_domains_ad AFTER DELETE ON ${table} WHEN ${when('old')} BEGIN ${add('old', '-old.n')} END`,
    )
    .execute(db);
  // Counters are only ever changed in n (007's months are not watched); a hand-made change of a
  // key is followed all the same.
  await sql
    .raw(
      `CREATE TRIGGER ${table}_domains_au AFTER UPDATE OF n, ${keys} ON ${table} WHEN ${when('old')} OR ${when('new')} BEGIN
        INSERT INTO ${table} (${keys}, n) SELECT ${domainRow('sqlite', table, 'old').key}, -old.n WHERE ${when('old')}
          ON CONFLICT (${keys}) DO UPDATE SET n = n + excluded.n;
        INSERT INTO ${table} (${keys}, n) SELECT ${domainRow('sqlite', table, 'new').key}, new.n WHERE ${when('new')}
          ON CONFLICT (${keys}) DO UPDATE SET n = n + excluded.n; END`,
    )
    .execute(db);
}

/**
 * PostgreSQL, per statement (the counters are written per statement, 004): the statement's
 * address rows summed per domain, added to the domain rows. The domain rows' own upsert fires
 * these triggers again, finding no address row: the EXISTS stops there, since a statement
 * trigger fires even for no rows. An update is its rows' change of n (an update of `months`
 * only, 007's, adds nothing); counter rows never change their key.
 */
async function postgresTriggers(db: Kysely<any>, table: CounterTable) {
  const keys = COLUMNS[table];
  const fn = `${table}_domains`;
  const { key: newKey, isAddress: newAddress } = domainRow('postgres', table, 'r');
  const upsert = (from: string, delta: string, where: string) => `
    IF EXISTS (SELECT 1 FROM ${from} WHERE ${where}) THEN
      INSERT INTO ${table} (${keys}, n)
        SELECT ${newKey}, sum(${delta}) FROM ${from} WHERE ${where}
        GROUP BY ${newKey} HAVING sum(${delta}) <> 0 ORDER BY ${newKey}
        ON CONFLICT (${keys}) DO UPDATE SET n = ${table}.n + excluded.n;
    END IF;`;
  const same = keys
    .split(', ')
    .map((k) => `o.${k} = r.${k}`)
    .join(' AND ');
  await sql
    .raw(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      IF TG_OP = 'INSERT' THEN ${upsert('new_rows r', 'r.n', newAddress)}
      ELSIF TG_OP = 'DELETE' THEN ${upsert('old_rows r', '-r.n', newAddress)}
      ELSE ${upsert(`new_rows r JOIN old_rows o ON ${same}`, 'r.n - o.n', `${newAddress} AND r.n <> o.n`)}
      END IF;
      RETURN NULL;
    END $fn$`)
    .execute(db);
  for (const [suffix, event, referencing] of [
    ['ai', 'INSERT', 'NEW TABLE AS new_rows'],
    ['ad', 'DELETE', 'OLD TABLE AS old_rows'],
    ['au', 'UPDATE', 'OLD TABLE AS old_rows NEW TABLE AS new_rows'],
  ] as const)
    await sql
      .raw(
        `CREATE TRIGGER ${fn}_${suffix} AFTER ${event} ON ${table} REFERENCING ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
      )
      .execute(db);
}
