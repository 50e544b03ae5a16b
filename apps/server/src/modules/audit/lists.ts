import type { AUDIT_SORT_FIELDS, AuditQuery } from '@obd/contract';
import { atLeast, atMost, exact, type FilterRules } from '../../lib/filters.ts';
import type { SortShape } from '../../lib/sort.ts';

/**
 * The audit list's shape: its columns, order and filter rules. `operator` (the acting operator's
 * e-mail contains) is not a rule over the events: the repository turns it into the ids of the
 * operators it matches, so that it walks the (operator_id, at, id) index and sums their counters.
 */
export const auditEvents = {
  rules: {
    action: exact('e.action'),
    target: exact('e.target'),
    from: atLeast('e.at'),
    to: atMost('e.at'),
  } satisfies FilterRules<AuditQuery>,
  columns: [
    'e.id',
    'e.at',
    'e.operator_id',
    'o.email as operator_email',
    'e.action',
    'e.target',
    'e.details',
    'e.address',
    'e.user_agent',
  ] as const,
  /**
   * Sortable columns (decisions §9); without a sort, newest first. Migration 019 indexes action
   * and target; time and id have theirs.
   */
  sort: {
    columns: { id: 'e.id', at: 'e.at', action: 'e.action', target: 'e.target' },
    nullable: ['target'],
    default: [['e.at', 'desc']],
    key: 'e.id',
  } satisfies SortShape<(typeof AUDIT_SORT_FIELDS)[number]>,
} as const;
