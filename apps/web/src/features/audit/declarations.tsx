import { Anchor } from '@mantine/core';
import type { AuditEvent, AuditQuery } from '@obd/contract';
import {
  AUDIT_ACTION_LABELS,
  AUDIT_ACTIONS,
  AUDIT_PAGE_SIZE,
  AUDIT_PATH,
  AUDIT_SORT_FIELDS,
} from '@obd/contract/constants';
import { Link } from '../../app/navigation.tsx';
import { detailsColumn } from '../../list/columns.tsx';
import { defineList, type FilterField, listSource, type QueryFilterName } from '../../list/declaration.ts';
import { cellText, dateTimeColumn } from '../../list/format.ts';
import { listHref } from '../../list/listState.ts';

/**
 * The audit log (issue 11, admins only): who did what, newest first, with exact totals; each event
 * opens its details (details.tsx: its own chunk, so the list's first download has none of the
 * detail screen's code).
 */

// The response schemas come with their requests: no zod in the audit log's first download.
export const schemas = () => import('./schemas.ts');

export const AUDIT_PATHS = { list: '/AuditLog', details: '/AuditLog/details' } as const;

const AUDIT_FILTERS: readonly FilterField<QueryFilterName<AuditQuery>>[] = [
  {
    kind: 'select',
    name: 'action',
    label: 'Action',
    options: [
      { value: '', label: 'All actions' },
      ...AUDIT_ACTIONS.map((action) => ({ value: action, label: AUDIT_ACTION_LABELS[action] })),
    ],
  },
  { kind: 'text', name: 'operator', label: 'Operator', placeholder: 'e-mail contains' },
  { kind: 'text', name: 'target', label: 'Target', placeholder: 'exactly as listed' },
  {
    kind: 'dateRange',
    label: 'Period',
    from: { name: 'from', label: 'From' },
    to: { name: 'to', label: 'To' },
  },
];

/** Who acted: their e-mail, or 'nobody signed in' (a failed sign-in, a reset by code, the command line). */
const operatorText = (event: AuditEvent) => event.operator_email ?? 'nobody signed in';

/** The audit log searched for `filter`, written as the list writes its own address. */
export const auditHref = (filter: { operator?: string; target?: string }) =>
  listHref(AUDIT_PATHS.list, AUDIT_FILTERS, filter);

/** The acting operator, a link to everything they did. */
export function OperatorLink({ event }: { event: AuditEvent }) {
  if (!event.operator_email) return operatorText(event);
  return (
    <Anchor
      component={Link}
      to={auditHref({ operator: event.operator_email })}
      size="sm"
      title="Everything this operator did"
    >
      {event.operator_email}
    </Anchor>
  );
}

/** The target, a link to every event about it. */
export function TargetLink({ event }: { event: AuditEvent }) {
  if (!event.target) return cellText(event.target);
  return (
    <Anchor
      component={Link}
      to={auditHref({ target: event.target })}
      size="sm"
      title="Every event about this target"
    >
      {event.target}
    </Anchor>
  );
}

/** Why a sign-in failed, as the server records it. */
const FAILED_SIGN_IN_REASONS: Record<string, string> = {
  'unknown-email': 'unknown e-mail',
  'wrong-password': 'wrong password',
  disabled: 'account disabled',
};

/** '1 session ended', '3 sessions ended'; '' when the count is missing. */
const sessionsText = (count: unknown) =>
  typeof count === 'number' ? `${count} ${count === 1 ? 'session' : 'sessions'} ended` : '';

/** The few details worth a glance in the list, e.g. 'viewer → editor', 'xlsx, 120 rows'. */
export function detailsSummary(event: AuditEvent): string {
  const d = event.details;
  const str = (key: string) =>
    typeof d[key] === 'string' || typeof d[key] === 'number' ? String(d[key]) : undefined;
  switch (event.action) {
    case 'role-changed':
      return `${str('from') ?? '?'} → ${str('to') ?? '?'}`;
    case 'sign-in-failed':
      return FAILED_SIGN_IN_REASONS[str('reason') ?? ''] ?? str('reason') ?? '';
    case 'sign-up':
    case 'invitation-created':
    case 'invitation-used':
    case 'invitation-revoked':
      return [str('role'), str('email')].filter(Boolean).join(', ');
    case 'export':
      return [str('format'), str('rows') === undefined ? undefined : `${str('rows')} rows`, str('outcome')]
        .filter(Boolean)
        .join(', ');
    case 'import':
      return [str('fileName'), str('outcome')].filter(Boolean).join(', ');
    case 'operator-disabled':
    case 'password-reset':
      return sessionsText(d.sessionsEnded);
    case 'sessions-ended':
      return sessionsText(d.ended);
    default:
      return '';
  }
}

export const auditList = defineList({
  title: 'Audit log',
  source: listSource(AUDIT_PATH, async () => (await schemas()).auditListSchema, 'events'),
  pageSize: AUDIT_PAGE_SIZE,
  filters: AUDIT_FILTERS,
  columns: [
    dateTimeColumn<AuditEvent, 'at'>('Time', 'at'),
    { header: 'Operator', cell: (event) => <OperatorLink event={event} />, nowrap: true },
    // Sorted by the action's stored name (the order of the filter's choices' values).
    {
      header: 'Action',
      cell: (event) => AUDIT_ACTION_LABELS[event.action],
      nowrap: true,
      sortField: 'action',
    },
    { header: 'Target', cell: (event) => <TargetLink event={event} />, sortField: 'target' },
    { header: 'Details', cell: (event) => detailsSummary(event) },
    { header: 'Address', cell: (event) => cellText(event.address), nowrap: true },
    detailsColumn<AuditEvent>(AUDIT_PATHS.details),
  ],
  messages: {
    error: 'Failed to fetch the audit log',
    emptyFiltered: 'No events found for the specified criteria.',
    emptyUnfiltered: 'No events recorded yet.',
  },
  // The operator is not among them: its e-mail is joined (see AUDIT_SORT_FIELDS).
  sortFields: AUDIT_SORT_FIELDS,
  // Live data: a search done before is asked again when shown.
  fetching: { staleTime: 0 },
  export: [
    { list: 'audit', format: 'csv', failedMessage: 'Failed to download the audit log' },
    { list: 'audit', format: 'xlsx', failedMessage: 'Failed to download the audit log' },
  ],
});
