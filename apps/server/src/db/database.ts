import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  type CompiledQuery,
  Kysely,
  type Migration,
  type MigrationProvider,
  Migrator,
  PostgresDialect,
  SqliteDialect,
} from 'kysely';
import pg from 'pg';
import Cursor from 'pg-cursor';
import type { DatabaseConfig } from '../config.ts';
import { cachingStatements } from '../lib/statementCache.ts';
import { initialMigration } from './migrations/001_initial.ts';
import { importsMigration } from './migrations/002_imports.ts';
import { runSearchMigration } from './migrations/003_run_search.ts';
import { listCountsMigration } from './migrations/004_list_counts.ts';
import { loginFailuresMigration } from './migrations/005_login_failures.ts';
import { droppableNaturalKeysMigration } from './migrations/006_droppable_natural_keys.ts';
import { listMonthsMigration } from './migrations/007_list_months.ts';
import { loginAttemptsMigration } from './migrations/008_login_attempts.ts';
import { ticketSessionsMigration } from './migrations/009_ticket_sessions_import_heartbeat.ts';
import { operatorsAuditMigration } from './migrations/010_operators_audit.ts';
import { overviewMigration } from './migrations/011_overview.ts';
import { listViewsMigration } from './migrations/012_list_views.ts';
import { importUndoMigration } from './migrations/013_import_undo.ts';
import { importPreviewsMigration } from './migrations/014_import_previews.ts';
import { sortIndexesMigration } from './migrations/015_sort_indexes.ts';
import { overviewSearchSpeedMigration } from './migrations/016_overview_search_speed.ts';
import { listPairsMigration } from './migrations/017_list_pairs.ts';
import { auditSortIndexesMigration } from './migrations/019_audit_sort_indexes.ts';
import { overviewUsersMigration } from './migrations/020_overview_users.ts';
import { listEndDaysMigration } from './migrations/021_list_end_days.ts';
import { overviewScannersMigration } from './migrations/022_overview_scanners.ts';
import { listPairsByBMigration } from './migrations/023_list_pairs_by_b.ts';
import { listPairsByAMigration } from './migrations/024_list_pairs_by_a.ts';
import { valueTimeIndexesMigration } from './migrations/025_value_time_indexes.ts';
import { listValuesSearchMigration } from './migrations/026_list_values_search.ts';
import { listEmailDomainsMigration } from './migrations/027_list_email_domains.ts';
import { listEndDayDomainsMigration } from './migrations/028_list_end_day_domains.ts';
import { listEmailDomainDaysMigration } from './migrations/029_list_email_domain_days.ts';
import { soleSortIndexesMigration } from './migrations/030_sole_sort_indexes.ts';
import { listEmailDomainEndDaysMigration } from './migrations/031_list_email_domain_end_days.ts';
import { appUserFilterIndexesMigration } from './migrations/032_app_user_filter_indexes.ts';
import { appUserEmailCountsMigration } from './migrations/033_app_user_email_counts.ts';
import { appUserDayCountsMigration } from './migrations/034_app_user_day_counts.ts';
import { listEmailFoldsMigration } from './migrations/035_list_email_folds.ts';
import { appUserEmailFoldsMigration } from './migrations/036_app_user_email_folds.ts';
import { listAddressTrigramsMigration } from './migrations/037_list_address_trigrams.ts';
import { listFoldTrigramsMigration } from './migrations/038_list_fold_trigrams.ts';
import { appUserFoldTrigramsMigration } from './migrations/039_app_user_fold_trigrams.ts';
import { appUserIdCountsMigration } from './migrations/040_app_user_id_counts.ts';
import { listEmailFoldIdsMigration } from './migrations/041_list_email_fold_ids.ts';
import { sortEndedWithEndMigration } from './migrations/042_sort_ended_with_end.ts';
import { listCodePairsMigration } from './migrations/043_list_code_pairs.ts';
import { sortWalksIndexOnlyMigration } from './migrations/044_sort_walks_index_only.ts';
import { listEmailFoldTimesMigration } from './migrations/045_list_email_fold_times.ts';
import { usersCreatedWithEmailMigration } from './migrations/046_users_created_with_email.ts';
import { usersEmailFoldSortsMigration } from './migrations/047_users_email_fold_sorts.ts';
import { sortEndedWithEndSqliteMigration } from './migrations/048_sort_ended_with_end_sqlite.ts';
import { listEmailNonAsciiMigration } from './migrations/049_list_email_non_ascii.ts';
import { sortByFilterSqliteMigration } from './migrations/050_sort_by_filter_sqlite.ts';
import { sortCarriesFiltersSqliteMigration } from './migrations/051_sort_carries_filters_sqlite.ts';
import { usersSortCarriesFiltersSqliteMigration } from './migrations/052_users_sort_carries_filters_sqlite.ts';
import { sortByFilterPostgresMigration } from './migrations/053_sort_by_filter_postgres.ts';
import { valueOrderCarriesFiltersMigration } from './migrations/054_value_order_carries_filters.ts';
import type { Database } from './schema.ts';
import { streamSqliteRows } from './sqliteStream.ts';

export type Dialect = DatabaseConfig['dialect'];

export interface Db {
  kysely: Kysely<Database>;
  /**
   * For the short reads that must not wait for a write transaction: the sign-in check of every
   * request and the progress polls of a running import. SQLite: a second, read-only connection
   * (WAL lets it read the last committed state while the first one writes; an import's write
   * transaction holds the first one for seconds). PostgreSQL: the same pool.
   */
  reader: Kysely<Database>;
  dialect: Dialect;
  /** The PostgreSQL schema the tables live in, when not the default one. */
  schema?: string;
  /**
   * Streams the rows of a compiled query in batches, for exports: one statement read
   * incrementally instead of a query per batch. It never holds the connection that serves the
   * lists (SQLite: a worker thread with its own read-only connection; PostgreSQL: a pooled
   * client with a cursor). Memory stays at a few batches whatever the number of rows.
   */
  streamRows<Row>(query: CompiledQuery<Row>, batchSize?: number): AsyncGenerator<Row[]>;
  /**
   * A token that changes whenever committed data may have changed, in this process or any other
   * sharing the database: equal tokens before and after a read mean nothing was written between.
   * It keys the caches of answers that depend on the data only (`lib/responseCache.ts`).
   */
  dataVersion(): string | Promise<string>;
  close(): Promise<void>;
}

const STREAM_BATCH = 1000;

// pg returns int8 (COUNT(*)) as a string; our counts fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/**
 * Opens the database named by the configuration. `schema` (PostgreSQL only) confines every
 * table to one schema, so test files can share a server without seeing each other's rows.
 */
/** What each PostgreSQL session of the server sets first (see `openDatabase`). */
export const SESSION_SETTINGS = 'SET jit = off';

export function openDatabase(config: DatabaseConfig, options: { schema?: string } = {}): Db {
  if (config.dialect === 'sqlite') {
    if (config.file !== ':memory:') fs.mkdirSync(path.dirname(config.file), { recursive: true });
    const sqlite = new SQLite(config.file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    const kysely = new Kysely<Database>({
      dialect: new SqliteDialect({ database: cachingStatements(sqlite) }),
    });
    // An in-memory database exists on its one connection only.
    const reader =
      config.file === ':memory:'
        ? kysely
        : new Kysely<Database>({
            dialect: new SqliteDialect({ database: cachingStatements(openReader(config.file)) }),
          });
    // `data_version` changes when another connection (another process, the export worker never
    // writes) commits; `total_changes()` counts every row this connection has written, triggers
    // included. Together they change on any write, at the cost of two in-process statement steps.
    const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
    const totalChanges = sqlite.prepare('SELECT total_changes()').pluck();
    return {
      kysely,
      reader,
      dialect: 'sqlite',
      dataVersion: () => `${dataVersion.get()}.${totalChanges.get()}`,
      async *streamRows<Row>(query: CompiledQuery<Row>, batchSize = STREAM_BATCH) {
        // A file is read by a worker thread on its own connection (WAL gives it a consistent
        // snapshot while this one keeps serving). An in-memory database exists only on this
        // connection, which an open iterator would block, so it is read at once: it is in
        // memory already.
        if (config.file !== ':memory:') {
          yield* streamSqliteRows(config.file, query, batchSize);
          return;
        }
        const rows = sqlite.prepare(query.sql).all(...(query.parameters as unknown[])) as Row[];
        for (let i = 0; i < rows.length; i += batchSize) yield rows.slice(i, i + batchSize);
      },
      close: async () => {
        if (reader !== kysely) await reader.destroy();
        await kysely.destroy();
      },
    };
  }
  const pool = new pg.Pool({
    connectionString: config.url,
    max: 10,
    ...(options.schema ? { options: `-c search_path=${options.schema},public` } : {}),
  });
  // No JIT compilation in the server's sessions. Every query here is bounded (a page, a count
  // over counters, a walk to a page), but at three million scans some walks' estimated cost
  // passes jit_above_cost (100,000), and compiling one took 10–20 ms of a request that runs in
  // ~10: 'gmail' ended by March, page 100, 71 → 35 ms. Set on each new connection, before any
  // query of the server's (a client runs its queries in order), whatever the URL's own options.
  pool.on('connect', (client) => {
    client.query(SESSION_SETTINGS).catch(() => {
      // A connection that cannot take it fails its first query too, with the reason.
    });
  });
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    kysely,
    reader: kysely,
    dialect: 'postgres',
    // The snapshot lists every transaction that has an id and has not ended, and the next id to
    // give out: a writing transaction changes it when it starts and again when it commits or
    // rolls back, in any process (and any database of the cluster: a harmless extra change).
    dataVersion: coalesced(async () => {
      const { rows } = await pool.query<{ v: string }>({
        name: 'data_version',
        text: 'SELECT pg_current_snapshot()::text AS v',
      });
      return rows[0]?.v ?? String(Math.random());
    }),
    ...(options.schema ? { schema: options.schema } : {}),
    async *streamRows<Row>(query: CompiledQuery<Row>, batchSize = STREAM_BATCH) {
      const client = await pool.connect();
      const cursor = client.query(new Cursor<Row>(query.sql, query.parameters as unknown[]));
      // The next batch is asked for before this one is handed out, so PostgreSQL reads and sends
      // it while the export formats this one (one batch ahead: memory stays bounded).
      let next: Promise<Row[]> | undefined = cursor.read(batchSize);
      try {
        while (next) {
          const rows: Row[] = await next;
          next = rows.length === batchSize ? cursor.read(batchSize) : undefined;
          if (rows.length > 0) yield rows;
        }
      } finally {
        // A read still under way must settle before the cursor can close.
        await next?.catch(() => undefined);
        await cursor.close();
        client.release();
      }
    },
    close: () => kysely.destroy(),
  };
}

/** The second SQLite connection of `Db.reader` (the first one has made the file WAL already). */
function openReader(file: string): SQLite.Database {
  const reader = new SQLite(file, { readonly: true });
  reader.pragma('busy_timeout = 5000');
  return reader;
}

/**
 * Shares one read among the callers that arrive while it waits to be sent: at most one read is
 * under way and one queued, and every caller gets a read sent after it asked, so a version it is
 * given is never older than its own request (under load, one round trip serves many requests).
 */
export function coalesced(read: () => Promise<string>): () => Promise<string> {
  let inFlight: Promise<string> | undefined;
  let queued: Promise<string> | undefined;
  const send = () => {
    const sent = read();
    inFlight = sent;
    const settled = () => {
      if (inFlight === sent) inFlight = undefined;
    };
    sent.then(settled, settled);
    return sent;
  };
  return () => {
    if (queued) return queued;
    if (!inFlight) return send();
    queued = inFlight
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        queued = undefined;
        return send();
      });
    return queued;
  };
}

/** Brings the schema up to date; runs on every start and in every test app. */
export async function migrate(db: Db): Promise<void> {
  const migrations: Record<string, Migration> = {
    '001_initial': initialMigration(db.dialect),
    '002_imports': importsMigration(),
    '003_run_search': runSearchMigration(db.dialect),
    '004_list_counts': listCountsMigration(db.dialect),
    '005_login_failures': loginFailuresMigration(),
    '006_droppable_natural_keys': droppableNaturalKeysMigration(db.dialect),
    '007_list_months': listMonthsMigration(db.dialect),
    '008_login_attempts': loginAttemptsMigration(db.dialect),
    '009_ticket_sessions_import_heartbeat': ticketSessionsMigration(),
    '010_operators_audit': operatorsAuditMigration(db.dialect),
    '013_import_undo': importUndoMigration(db.dialect),
    '011_overview': overviewMigration(db.dialect),
    '014_import_previews': importPreviewsMigration(),
    '015_sort_indexes': sortIndexesMigration(db.dialect),
    '016_overview_search_speed': overviewSearchSpeedMigration(db.dialect),
    '017_list_pairs': listPairsMigration(db.dialect),
    '012_list_views': listViewsMigration(db.dialect),
    '019_audit_sort_indexes': auditSortIndexesMigration(db.dialect),
    '020_overview_users': overviewUsersMigration(db.dialect),
    '021_list_end_days': listEndDaysMigration(db.dialect),
    '022_overview_scanners': overviewScannersMigration(db.dialect),
    '023_list_pairs_by_b': listPairsByBMigration(db.dialect),
    '024_list_pairs_by_a': listPairsByAMigration(db.dialect),
    '025_value_time_indexes': valueTimeIndexesMigration(db.dialect),
    '026_list_values_search': listValuesSearchMigration(db.dialect),
    '027_list_email_domains': listEmailDomainsMigration(db.dialect),
    '028_list_end_day_domains': listEndDayDomainsMigration(db.dialect),
    '029_list_email_domain_days': listEmailDomainDaysMigration(db.dialect),
    '030_sole_sort_indexes': soleSortIndexesMigration(db.dialect),
    '031_list_email_domain_end_days': listEmailDomainEndDaysMigration(db.dialect),
    '032_app_user_filter_indexes': appUserFilterIndexesMigration(db.dialect),
    '033_app_user_email_counts': appUserEmailCountsMigration(db.dialect),
    '034_app_user_day_counts': appUserDayCountsMigration(db.dialect),
    '035_list_email_folds': listEmailFoldsMigration(db.dialect),
    '036_app_user_email_folds': appUserEmailFoldsMigration(db.dialect),
    '037_list_address_trigrams': listAddressTrigramsMigration(db.dialect),
    '038_list_fold_trigrams': listFoldTrigramsMigration(db.dialect),
    '039_app_user_fold_trigrams': appUserFoldTrigramsMigration(db.dialect),
    '040_app_user_id_counts': appUserIdCountsMigration(db.dialect),
    '041_list_email_fold_ids': listEmailFoldIdsMigration(db.dialect),
    '042_sort_ended_with_end': sortEndedWithEndMigration(db.dialect),
    '043_list_code_pairs': listCodePairsMigration(db.dialect),
    '044_sort_walks_index_only': sortWalksIndexOnlyMigration(db.dialect),
    '045_list_email_fold_times': listEmailFoldTimesMigration(db.dialect),
    '046_users_created_with_email': usersCreatedWithEmailMigration(db.dialect),
    '047_users_email_fold_sorts': usersEmailFoldSortsMigration(db.dialect),
    '048_sort_ended_with_end_sqlite': sortEndedWithEndSqliteMigration(db.dialect),
    '049_list_email_non_ascii': listEmailNonAsciiMigration(db.dialect),
    '050_sort_by_filter_sqlite': sortByFilterSqliteMigration(db.dialect),
    '051_sort_carries_filters_sqlite': sortCarriesFiltersSqliteMigration(db.dialect),
    '052_users_sort_carries_filters_sqlite': usersSortCarriesFiltersSqliteMigration(db.dialect),
    '053_sort_by_filter_postgres': sortByFilterPostgresMigration(db.dialect),
    '054_value_order_carries_filters': valueOrderCarriesFiltersMigration(db.dialect),
  };
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  // Kysely looks for its own bookkeeping tables in every schema unless told where they are.
  const bookkeeping = db.schema
    ? { migrationTableSchema: db.schema, migrationLockTableSchema: db.schema }
    : {};
  const { error, results } = await new Migrator({
    db: db.kysely,
    provider,
    // Several engineers number their migrations at once and land them in any order: a database
    // that ran a later number still runs an earlier one added after it.
    allowUnorderedMigrations: true,
    ...bookkeeping,
  }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
}
