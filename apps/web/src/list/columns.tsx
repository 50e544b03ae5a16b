import { Button, UnstyledButton } from '@mantine/core';
import { Link } from '../app/navigation.tsx';
import classes from './DataTable.module.css';
import type { Column } from './declaration.ts';
import { dateTimeText } from './format.ts';

/** Words written in capitals in a header: `vin` → VIN, `pid` → PID. */
const ACRONYMS = new Set(['id', 'vin', 'pid', 'pdf', 'url', 'dtc', 'ecu', 'obd']);

/** A field name as a column header: `last_login_at` → 'Last Login At', `id` → 'ID'. */
export function readableHeader(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((word) =>
      ACRONYMS.has(word.toLowerCase()) ? word.toUpperCase() : word[0]?.toUpperCase() + word.slice(1),
    )
    .join(' ');
}

/**
 * One column per field of the rows, in the order the server sends them (fields first seen in later
 * rows are appended), headed `readableHeader(key)` unless `headers` names it, each on one line.
 * Times show as `YYYY-MM-DD HH:MM:SS`, booleans as Yes/No, empty values as '-'.
 */
export function fieldColumnsFromRows<Row extends Readonly<Record<string, unknown>>>(
  rows: readonly Row[],
  headers: Readonly<Record<string, string>> = {},
): Column<Row>[] {
  const keys: string[] = [];
  for (const row of rows) for (const key of Object.keys(row)) if (!keys.includes(key)) keys.push(key);
  return keys.map((key) => ({
    header: headers[key] ?? readableHeader(key),
    // Field values are short (ids, codes, times, phone numbers): one line each, the table scrolls.
    nowrap: true,
    sortField: key,
    cell: (row: Row) => dateTimeText(row[key]),
  }));
}

/** A column with a link per row, e.g. 'View Details' → `/ObdScanReport/details?id=7`. */
export function linkColumn<Row>(header: string, label: string, href: (row: Row) => string): Column<Row> {
  return {
    header,
    nowrap: true,
    // A button per row: not a column of the downloads.
    exported: false,
    cell: (row) => <RowLink to={href(row)}>{label}</RowLink>,
  };
}

/** Mantine's Button classes, as its compact-sm button draws them (see `compactButtonLook`). */
const COMPACT_BUTTON_CLASS = [
  'mantine-focus-auto mantine-active',
  Button.classes.root,
  UnstyledButton.classes.root,
  classes.rowLink,
].join(' ');

/**
 * The props that draw a plain `<a>`, `<button>` or `Link` as Mantine's `<Button size="compact-sm"
 * variant={variant}>` draws it (the same classes and data attributes; the variant's variables in
 * DataTable.module.css), with `CompactButtonLabel` inside: a row's buttons and links without a
 * Button component each, four components a button, 30 rows a page (issue 14 item 6). `subtle` has
 * no background until pointed at: the caller's class sets `--button-bg: transparent` (e.g.
 * features/operations/scanReport.module.css).
 */
export function compactButtonLook(variant: 'light' | 'subtle', className?: string) {
  return {
    className: className ? `${COMPACT_BUTTON_CLASS} ${className}` : COMPACT_BUTTON_CLASS,
    'data-variant': variant,
    'data-size': 'compact-sm',
  } as const;
}

/** The label of a `compactButtonLook` element, in Button's own inner elements. */
export function CompactButtonLabel({ children }: { children: string }) {
  return (
    <span className={Button.classes.inner}>
      <span className={Button.classes.label}>{children}</span>
    </span>
  );
}

/** A row's link, drawn as Mantine's `<Button component={Link} size="compact-sm" variant="light">`. */
function RowLink({ to, children }: { to: string; children: string }) {
  return (
    <Link to={to} {...compactButtonLook('light')}>
      <CompactButtonLabel>{children}</CompactButtonLabel>
    </Link>
  );
}

/** The 'View Details' column of a list whose records open at `detailPath?id=<id>`. */
export function detailsColumn<Row extends { id: number | string }>(detailPath: string): Column<Row> {
  return linkColumn<Row>('View Details', 'View Details', (row) => detailHref(detailPath, row.id));
}

/** The address of one record's detail screen: `/ObdScanReport/details?id=7`. */
export function detailHref(detailPath: string, id: number | string): string {
  return `${detailPath}?${new URLSearchParams({ id: String(id) })}`;
}
