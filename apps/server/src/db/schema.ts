import type { Generated } from 'kysely';

/**
 * The database as Kysely sees it. The same columns on SQLite and PostgreSQL:
 * booleans are 0/1 integers, times are ISO-8601 UTC text, result arrays are JSON text —
 * so one query serves both dialects and ISO strings order and compare correctly.
 */
export interface Database {
  makes: { id: Generated<number>; name: string; segment: string };
  model_groups: { id: Generated<number>; make_id: number; name: string };
  models: {
    id: Generated<number>;
    make_id: number;
    model_group_id: number;
    name: string;
    year_from: number | null;
    year_to: number | null;
  };
  coverage: { id: Generated<number>; make_id: number; function_name: string; function_type: string };
  mechanic_commands: {
    id: Generated<number>;
    make_id: number;
    command: string;
    module: string;
    function_type: string;
    full_scan: number;
    /** 013: the import that inserted the row (null: not imported), and when the row was last edited. */
    import_id: number | null;
    edited_at: string | null;
  };
  /** 013: the commands an Update commands import replaced (`import_id`), kept so its undo restores them. */
  import_replaced_commands: {
    import_id: number;
    id: number;
    make_id: number;
    command: string;
    module: string;
    function_type: string;
    full_scan: number;
    row_import_id: number | null;
    edited_at: string | null;
  };
  custom_commands: CatalogueColumns & { function_name: string; variants: string };
  actuation_commands: CatalogueColumns & { actuation_type: string; message: string | null; details: string };
  spf_commands: CatalogueColumns & { function_name: string; hard_coded: number; details: string };
  odometer_commands: CatalogueColumns & {
    header: string | null;
    sub_header: string | null;
    pid: string | null;
    protocol: string | null;
    system: string | null;
    init: string | null;
    formula_based: number;
    generic: number;
    formula_metric: string | null;
    formula_imperial: string | null;
    unit_metric: string | null;
    unit_imperial: string | null;
  };
  live_data_commands: CatalogueColumns & {
    name: string;
    module: string;
    header: string | null;
    sub_header: string | null;
    pid: string | null;
    protocol: string | null;
    formula_based: number;
    formula_metric: string | null;
    formula_imperial: string | null;
    unit_metric: string | null;
    unit_imperial: string | null;
    reference_json: string | null;
  };
  app_users: {
    id: Generated<number>;
    email: string;
    name: string | null;
    phone: string | null;
    country: string | null;
    plan: string;
    status: string;
    device: string | null;
    app_version: string | null;
    created_at: string;
    last_login_at: string | null;
    /** Secrets of the app's own backend: never returned by this dashboard. */
    auth_token: string | null;
    password_hash: string | null;
  };
  subscriptions: {
    id: Generated<number>;
    app_user_id: number;
    plan: string;
    status: string;
    starts_at: string;
    ends_at: string | null;
    purchase_token: string | null;
  };
  scans: {
    id: Generated<number>;
    email: string;
    app_user_id: number | null;
    scan_start_time: string;
    scan_end_time: string | null;
    make: string;
    model: string | null;
    license_plate: string | null;
    vin: string | null;
    scan_ended: number;
    country_id: number | null;
    function: string | null;
    type: string | null;
    app_version: string | null;
    pdf_report: string | null;
    scan_res_array: string;
    decoded_array: string;
  };
  special_function_runs: {
    id: Generated<number>;
    user_email: string;
    make: string;
    module: string | null;
    model: string | null;
    function_type: string | null;
    command_type: string | null;
    item_number: number | null;
    variant: string | null;
    license_plate: string | null;
    scan_ended: number;
    hard_coded: number;
    scan_start_time: string;
    scan_end_time: string | null;
    scan_res_array: string;
  };
  actuation_runs: {
    id: Generated<number>;
    user_email: string;
    make: string;
    model: string | null;
    actuation_type: string | null;
    actuation_option: string | null;
    input: string | null;
    device: string | null;
    product_id: string | null;
    user_car_model_id: number | null;
    end_date: string | null;
    created_at: string;
    updated_at: string;
    scan_res_array: string;
  };
  fault_codes: FaultColumns & {
    title: string | null;
    severity: number | null;
    repair_difficulty: number | null;
  };
  fault_code_causes: FaultTextColumns & { causes: string };
  fault_code_symptoms: FaultTextColumns & { symptom: string };
  fault_code_solutions: FaultTextColumns & { solution: string };
  activation_codes: {
    id: Generated<number>;
    code: string;
    plan: string | null;
    duration: string | null;
    vehicle: string | null;
    import_id: number | null;
    created_at: string;
    /** 013: when the row was last edited (a trigger stamps every UPDATE). */
    edited_at: string | null;
  };
  operators: {
    id: Generated<number>;
    email: string;
    password_hash: string;
    role: string;
    created_at: string;
    /** 010: set while the operator is disabled (no sign-in, no session). */
    disabled_at: string | null;
    /** 010: the last request of any of their sessions, refreshed about once a minute. */
    last_seen_at: string | null;
  };
  /** One row per sign-in or sign-up attempt, written before its check (`auth/loginThrottle.ts`). */
  login_attempts: { id: Generated<number>; email: string; address: string; attempted_at: string };
  sessions: {
    id: Generated<number>;
    token_hash: string;
    operator_id: number;
    created_at: string;
    last_seen_at: string;
    expires_at: string;
    revoked_at: string | null;
    /** 010: the client's address and user agent at sign-in. */
    address: string | null;
    user_agent: string | null;
  };
  invitations: {
    id: Generated<number>;
    code_hash: string;
    role: string;
    created_by: number | null;
    created_at: string;
    expires_at: string;
    used_at: string | null;
    used_by: number | null;
  };
  /** 010: admin-issued one-time password-reset codes (only the hash), 24 hours, single use. */
  password_resets: {
    id: Generated<number>;
    code_hash: string;
    operator_id: number;
    created_by: number | null;
    created_at: string;
    expires_at: string;
    used_at: string | null;
  };
  /** 010: the append-only audit log (`modules/audit`). `details` is JSON text of an object. */
  audit_events: {
    id: Generated<number>;
    at: string;
    operator_id: number | null;
    action: string;
    target: string | null;
    details: string;
    address: string | null;
    user_agent: string | null;
  };
  /**
   * 010: audit events per day (`col = ''`), per action and acting operator per day, and per
   * target (`day = ''`), kept by triggers; the audit list's totals are sums of these.
   */
  audit_counts: { col: string; val: string; day: string; n: number | string };
  download_tickets: {
    id: Generated<number>;
    token_hash: string;
    operator_id: number;
    kind: string;
    params: string;
    created_at: string;
    expires_at: string;
    used_at: string | null;
    /** 009: the session that asked for the link; the link dies with it. */
    session_id: number | null;
  };
  imports: {
    id: Generated<number>;
    operator_id: number | null;
    kind: string;
    file_name: string;
    file_size: number;
    file_hash: string;
    status: string;
    rows_processed: number;
    stats: string | null;
    errors: string | null;
    message: string | null;
    started_at: string;
    finished_at: string | null;
    /** 002: the phase and percentage of a running import, rows to write, problems, earlier identical file. */
    phase: string | null;
    progress: Generated<number>;
    rows_total: number | null;
    error_count: Generated<number>;
    duplicate_of: number | null;
    /** 009: last sign of life of a running import's process (PostgreSQL). */
    heartbeat_at: string | null;
    /** 013: rows the import's write added (set in its transaction); when and by whom it was undone. */
    rows_inserted: number | null;
    undone_at: string | null;
    undone_by: number | null;
    /** 014: a preview's stored file (its folder holds it), until when, its form fields and figures. */
    preview_path: string | null;
    expires_at: string | null;
    fields: string | null;
    preview_stats: string | null;
    /** 014: JSON { sheet: headers } of the cells kept in import_problems. */
    problem_columns: string | null;
  };
  /** 014: every problem row of an import (bounded), with its cells as the file had them. */
  import_problems: {
    import_id: number;
    sheet_index: number;
    sheet: string;
    row: number;
    problem: string;
    cells: string | null;
  };
  /** 014: column mappings given by operators, per kind of upload and set of file headers. */
  import_column_mappings: {
    kind: string;
    headers_key: string;
    mapping: string;
    operator_id: number | null;
    updated_at: string;
  };
  /**
   * 004: rows per value of each counted column of the activity lists (`col = ''`: the whole
   * table), kept by triggers; 007 adds each value's rows per month for the columns of many values.
   * The columns counted are declared in `modules/operations/lists.ts`.
   */
  list_totals: {
    tbl: string;
    col: string;
    val: string;
    /** bigint on PostgreSQL: the driver answers it as text. */
    n: number | string;
    /** `{"2026-05": 123, …}`: JSON text on SQLite, jsonb (an object) on PostgreSQL. */
    months: string | Record<string, number> | null;
  };
  /** 012: an operator's columns (JSON `{ order, hidden }`, null: as declared) and density per list. */
  list_preferences: {
    operator_id: number;
    list: string;
    columns: string | null;
    density: string;
    updated_at: string;
  };
  /** 012: a list's query and columns under a name; `shared` 0/1 (every operator may open it). */
  saved_views: {
    id: Generated<number>;
    operator_id: number;
    list: string;
    name: string;
    shared: number;
    query: string;
    columns: string | null;
    created_at: string;
    updated_at: string;
  };
  /** 004: the same per day of the list's sort time, for the columns of few values. */
  list_days: { tbl: string; col: string; val: string; day: string; n: number | string };
  /** 011: the fault codes decoded in each scan (upper-cased, once per scan), kept by triggers on scans. */
  scan_dtcs: { scan_id: number; dtc: string; scan_start_time: string };
  /**
   * 011: scans per day of their start by `topic` (segment, make, app_version, email, dtc) and
   * `key`, kept by triggers; `overview_months` the same per month (make, app_version, dtc).
   */
  overview_days: { topic: string; key: string; day: string; n: number | string };
  overview_months: { topic: string; key: string; month: string; n: number | string };
  /**
   * 022: e-mails that scanned on `day` and, before it, last on `prev` ('' for never), kept by
   * triggers on `overview_days`; `overview_scanner_months` the same summed per month of `day`.
   */
  overview_scanner_days: { day: string; prev: string; n: number | string };
  overview_scanner_months: { month: string; prev: string; n: number | string };
  /** 022: the same per day, with `prev` cut to its month ('YYYY-MM', '' for never). */
  overview_scanner_day_months: { day: string; prev: string; n: number | string };
}

interface CatalogueColumns {
  id: Generated<number>;
  make_id: number;
  model_group_id: number | null;
  from_year: number | null;
  to_year: number | null;
}

interface FaultColumns {
  id: Generated<number>;
  dtc: string;
  make: string | null;
  company_id: number;
  generic: number;
  /** 013: the import that inserted the row (null: not imported), and when the row was last edited. */
  import_id: number | null;
  edited_at: string | null;
}

interface FaultTextColumns extends FaultColumns {
  language: string;
  /** sha-256 of the text: the natural key (dtc, company_id, language, text) as a short unique index. */
  text_hash: string;
}
