import type { OPERATOR_SORT_FIELDS, OperatorQuery } from '@obd/contract';
import { contains, exact, type FilterRules } from '../../lib/filters.ts';
import type { SortShape } from '../../lib/sort.ts';

/**
 * The operators list's shape. `status` is not a column: active and disabled are
 * `disabled_at IS NULL` and `IS NOT NULL` (the repository adds it). Never the password hash.
 */
export const operators = {
  rules: {
    role: exact('o.role'),
    email: contains('o.email'),
  } satisfies FilterRules<OperatorQuery>,
  columns: ['o.id', 'o.email', 'o.role', 'o.created_at', 'o.last_seen_at', 'o.disabled_at'] as const,
  /**
   * Sortable columns (decisions §9); without a sort, by e-mail. A handful of rows: no index
   * needed. Status is `disabled_at` (active ones, with none, first ascending).
   */
  sort: {
    columns: {
      id: 'o.id',
      email: 'o.email',
      role: 'o.role',
      status: 'o.disabled_at',
      created_at: 'o.created_at',
      last_seen_at: 'o.last_seen_at',
      disabled_at: 'o.disabled_at',
    },
    nullable: ['status', 'last_seen_at', 'disabled_at'],
    default: [['o.email', 'asc']],
    key: 'o.id',
  } satisfies SortShape<(typeof OPERATOR_SORT_FIELDS)[number]>,
} as const;
