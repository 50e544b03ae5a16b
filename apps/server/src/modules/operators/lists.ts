import type { OperatorQuery } from '@obd/contract';
import { contains, exact, type FilterRules } from '../../lib/filters.ts';

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
} as const;
