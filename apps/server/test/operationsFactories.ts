import type { Db } from '../src/db/database.ts';

let sequence = 0;
const next = () => {
  sequence += 1;
  return sequence;
};

export async function insertUser(
  db: Db,
  over: Partial<{ email: string; plan: string; status: string; created_at: string }> = {},
) {
  const n = next();
  const user = await db.kysely
    .insertInto('app_users')
    .values({
      email: over.email ?? `user${n}@example.com`,
      name: `User ${n}`,
      phone: '+91 98765 43210',
      country: 'IN',
      plan: over.plan ?? 'free',
      status: over.status ?? 'active',
      device: 'Android 14',
      app_version: '3.4.1',
      created_at: over.created_at ?? '2025-01-01T00:00:00.000Z',
      last_login_at: null,
      auth_token: `secret-token-${n}`,
      password_hash: `$argon2id$secret-${n}`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.kysely
    .insertInto('subscriptions')
    .values({
      app_user_id: user.id,
      plan: over.plan ?? 'free',
      status: 'active',
      starts_at: '2025-01-01T00:00:00.000Z',
      ends_at: '2026-01-01T00:00:00.000Z',
      purchase_token: `purchase-secret-${n}`,
    })
    .execute();
  return user.id;
}

export interface ScanInput {
  email?: string;
  make?: string;
  model?: string | null;
  license_plate?: string | null;
  country_id?: number | null;
  scan_start_time?: string;
  scan_end_time?: string | null;
  type?: string | null;
  app_version?: string | null;
  pdf_report?: string | null;
  scan_res_array?: unknown[];
  decoded_array?: unknown[];
}

/** The row `insertScan` writes, for a test that inserts many in one statement. */
export function scanValues(s: ScanInput = {}) {
  const n = next();
  const start = s.scan_start_time ?? new Date(Date.UTC(2025, 0, 1) + n * 3600_000).toISOString();
  return {
    email: s.email ?? `driver${n}@example.com`,
    app_user_id: null,
    scan_start_time: start,
    scan_end_time:
      s.scan_end_time === undefined ? new Date(Date.parse(start) + 600_000).toISOString() : s.scan_end_time,
    make: s.make ?? 'Honda',
    model: s.model === undefined ? 'Civic' : s.model,
    license_plate: s.license_plate === undefined ? `MH12AB${1000 + n}` : s.license_plate,
    vin: `1HGCM82633A${String(100000 + n)}`,
    scan_ended: s.scan_end_time === null ? 0 : 1,
    country_id: s.country_id === undefined ? 91 : s.country_id,
    function: 'Full Scan',
    type: s.type === undefined ? 'OBD' : s.type,
    app_version: s.app_version === undefined ? '3.4.1' : s.app_version,
    pdf_report: s.pdf_report ?? null,
    scan_res_array: JSON.stringify(s.scan_res_array ?? []),
    decoded_array: JSON.stringify(s.decoded_array ?? []),
  };
}

export async function insertScan(db: Db, s: ScanInput = {}) {
  const row = await db.kysely
    .insertInto('scans')
    .values(scanValues(s))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertSpecialFunction(
  db: Db,
  s: Partial<{
    user_email: string;
    make: string;
    item_number: number;
    hard_coded: boolean;
    scan_ended: boolean;
    scan_start_time: string;
    variant: string;
  }> = {},
  results: unknown[] = [],
) {
  const n = next();
  const start = s.scan_start_time ?? new Date(Date.UTC(2025, 0, 1) + n * 3600_000).toISOString();
  const row = await db.kysely
    .insertInto('special_function_runs')
    .values({
      user_email: s.user_email ?? `driver${n}@example.com`,
      make: s.make ?? 'Honda',
      module: 'Engine',
      model: 'Civic',
      function_type: 'Reset',
      command_type: 'UDS',
      item_number: s.item_number ?? 7,
      variant: s.variant ?? 'Petrol',
      license_plate: `KA01XY${1000 + n}`,
      scan_ended: s.scan_ended === false ? 0 : 1,
      hard_coded: s.hard_coded ? 1 : 0,
      scan_start_time: start,
      scan_end_time: new Date(Date.parse(start) + 60_000).toISOString(),
      scan_res_array: JSON.stringify(results),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** One special-function run of `insertSpecialFunctionRuns`: what a test varies, the rest fixed. */
export interface SpecialFunctionRow {
  email: string;
  start: string;
  functionType?: string;
  variant?: string;
  ended?: boolean;
}

/**
 * Inserts many special-function runs, 500 a statement, in the given order, and returns their ids
 * in that order (every other column as `insertSpecialFunction` writes it).
 */
export async function insertSpecialFunctionRuns(
  db: Db,
  rows: readonly SpecialFunctionRow[],
): Promise<number[]> {
  const ids: number[] = [];
  for (let from = 0; from < rows.length; from += 500) {
    const inserted = await db.kysely
      .insertInto('special_function_runs')
      .values(
        rows.slice(from, from + 500).map((r, k) => ({
          user_email: r.email,
          make: 'Honda',
          module: 'Engine',
          model: 'Civic',
          function_type: r.functionType ?? 'Reset',
          command_type: 'UDS',
          item_number: 7,
          variant: r.variant ?? 'Petrol',
          license_plate: `KA01XY${from + k}`,
          scan_ended: r.ended === false ? 0 : 1,
          hard_coded: 0,
          scan_start_time: r.start,
          scan_end_time: new Date(Date.parse(r.start) + 60_000).toISOString(),
          scan_res_array: '[]',
        })),
      )
      .returning('id')
      .execute();
    ids.push(...inserted.map((r) => r.id));
  }
  return ids;
}

export async function insertActuationRun(
  db: Db,
  a: Partial<{
    user_email: string;
    make: string;
    model: string;
    actuation_type: string;
    user_car_model_id: number;
    created_at: string;
  }> = {},
  results: unknown[] = [],
) {
  const n = next();
  const created = a.created_at ?? new Date(Date.UTC(2025, 0, 1) + n * 3600_000).toISOString();
  const row = await db.kysely
    .insertInto('actuation_runs')
    .values({
      user_email: a.user_email ?? `driver${n}@example.com`,
      make: a.make ?? 'Honda',
      model: a.model ?? 'Civic',
      actuation_type: a.actuation_type ?? 'Cooling Fan',
      actuation_option: 'On',
      input: '100',
      device: 'OBDLink MX+',
      product_id: `PRD-${n}`,
      user_car_model_id: a.user_car_model_id ?? 12,
      end_date: null,
      created_at: created,
      updated_at: created,
      scan_res_array: JSON.stringify(results),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
