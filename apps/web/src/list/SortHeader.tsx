import classes from './DataTable.module.css';
import { ariaSort, type ListSort, nextSort } from './sortState.ts';

/** The arrow beside a sortable header: drawn, not text, so the header's name stays its text. */
function SortArrow({ state }: { state: 'ascending' | 'descending' | 'none' }) {
  return (
    <svg aria-hidden="true" width="8" height="12" viewBox="0 0 8 12" style={{ flex: 'none' }}>
      <path
        d="M4 0 8 5H0z"
        fill="currentColor"
        opacity={state === 'ascending' ? 1 : state === 'none' ? 0.3 : 0}
      />
      <path
        d="M4 12 0 7h8z"
        fill="currentColor"
        opacity={state === 'descending' ? 1 : state === 'none' ? 0.3 : 0}
      />
    </svg>
  );
}

/**
 * A sortable column's header: a button that sorts by the column (ascending, descending, then the
 * list's own order). Its name says what the click will do; the header cell carries `aria-sort`.
 */
export function SortHeader({
  header,
  field,
  sort,
  onSort,
}: {
  header: string;
  field: string;
  sort: ListSort | undefined;
  onSort: (field: string) => void;
}) {
  const state = ariaSort(sort, field);
  const next = nextSort(sort, field);
  const action = next
    ? `sort by ${header} ${next.order === 'asc' ? 'ascending' : 'descending'}`
    : 'default order';
  return (
    // A plain button (the header's font, Mantine's keyboard focus ring): one per column of every list.
    <button
      type="button"
      onClick={() => onSort(field)}
      title={`${header}: ${action}`}
      className={`${classes.sortButton} mantine-focus-auto`}
    >
      {header}
      <SortArrow state={state} />
    </button>
  );
}
