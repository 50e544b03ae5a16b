import type { SavedView } from '@obd/contract';
import { toColumnLayout } from '../preferences/mapper.ts';

export interface SavedViewRecord {
  id: number;
  operator_id: number;
  owner_email: string | null;
  list: string;
  name: string;
  shared: number | boolean;
  query: string;
  columns: string | null;
  created_at: string;
  updated_at: string;
}

/** Who may change a view: its owner; for a shared view, an admin too. */
export function mayChange(
  view: Pick<SavedViewRecord, 'operator_id' | 'shared'>,
  viewer: { id: number; role: string },
) {
  return view.operator_id === viewer.id || (Boolean(view.shared) && viewer.role === 'admin');
}

/** Who may open a view: its owner, or anyone when it is shared. */
export function mayRead(view: Pick<SavedViewRecord, 'operator_id' | 'shared'>, viewer: { id: number }) {
  return view.operator_id === viewer.id || Boolean(view.shared);
}

export function toSavedView(row: SavedViewRecord, viewer: { id: number; role: string }): SavedView {
  return {
    id: row.id,
    list: row.list,
    name: row.name,
    shared: Boolean(row.shared),
    query: row.query,
    columns: toColumnLayout(row.columns),
    owner_id: row.operator_id,
    owner_email: row.owner_email,
    editable: mayChange(row, viewer),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
