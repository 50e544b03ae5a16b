import type { ColumnLayout } from '@obd/contract';
import type { Column, ListSource } from './declaration.ts';

/**
 * Choosing columns (issue 12): an operator's arrangement of a list's columns, by header. Pure, so
 * every rule is tested without React: columns the layout does not name (new ones, or those of a
 * list whose columns come from its rows) keep their declared place; at least one column stays shown.
 */

/** The key a list's preferences and views are stored under: its API path without `/api/`. */
export function listKeyOf(source: Pick<ListSource<unknown>, 'path'>): string {
  return (
    source.path
      .replace(/^\/api\//, '')
      .replace(/[^A-Za-z0-9_.-]+/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '') || 'list'
  );
}

/** The columns in the layout's order (unnamed ones where they were declared), hidden ones included. */
export function orderedColumns<Row>(
  columns: readonly Column<Row>[],
  layout: ColumnLayout | null,
): Column<Row>[] {
  if (!layout) return [...columns];
  const rank = new Map(layout.order.map((header, index) => [header, index]));
  const named = columns.filter((column) => rank.has(column.header));
  named.sort((a, b) => (rank.get(a.header) ?? 0) - (rank.get(b.header) ?? 0));
  // Named columns fill the slots named columns had; the others stay in their declared slot.
  let next = 0;
  return columns.map((column) => (rank.has(column.header) ? (named[next++] as Column<Row>) : column));
}

/** The columns shown: in order, without the hidden ones (all of them if the layout would hide every one). */
export function visibleColumns<Row>(
  columns: readonly Column<Row>[],
  layout: ColumnLayout | null,
): Column<Row>[] {
  const ordered = orderedColumns(columns, layout);
  if (!layout) return ordered;
  const hidden = new Set(layout.hidden);
  const shown = ordered.filter((column) => !hidden.has(column.header));
  return shown.length > 0 ? shown : ordered;
}

/** The layout after showing or hiding `header` (the last shown column cannot be hidden). */
export function toggleColumn(
  columns: readonly Column<unknown>[],
  layout: ColumnLayout | null,
  header: string,
): ColumnLayout {
  const order = orderedColumns(columns, layout).map((column) => column.header);
  const hidden = new Set(layout?.hidden ?? []);
  if (hidden.has(header)) hidden.delete(header);
  else if (order.filter((name) => !hidden.has(name)).length > 1) hidden.add(header);
  return { order, hidden: order.filter((name) => hidden.has(name)) };
}

/** The layout after moving `header` one place up (-1) or down (+1); at an end it stays. */
export function moveColumn(
  columns: readonly Column<unknown>[],
  layout: ColumnLayout | null,
  header: string,
  by: -1 | 1,
): ColumnLayout {
  const order = orderedColumns(columns, layout).map((column) => column.header);
  const from = order.indexOf(header);
  const to = from + by;
  if (from >= 0 && to >= 0 && to < order.length) {
    order.splice(from, 1);
    order.splice(to, 0, header);
  }
  const hidden = new Set(layout?.hidden ?? []);
  return { order, hidden: order.filter((name) => hidden.has(name)) };
}
