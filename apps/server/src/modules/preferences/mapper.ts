import { type ColumnLayout, columnLayoutSchema, type Density, type ListPreferences } from '@obd/contract';

export interface PreferencesRecord {
  list: string;
  columns: string | null;
  density: string;
  updated_at: string;
}

/**
 * A stored layout, read back; anything the contract no longer accepts (a hand-edited row) is the
 * declared layout again rather than an error on every visit to the list.
 */
export function toColumnLayout(text: string | null): ColumnLayout | null {
  if (text === null) return null;
  try {
    const parsed = columnLayoutSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** One operator's preferences for a list; a list never arranged is its declared columns, comfortable. */
export function toListPreferences(list: string, row: PreferencesRecord | undefined): ListPreferences {
  if (!row) return { list, columns: null, density: 'comfortable', updated_at: null };
  return {
    list,
    columns: toColumnLayout(row.columns),
    density: (row.density === 'compact' ? 'compact' : 'comfortable') satisfies Density,
    updated_at: row.updated_at,
  };
}
