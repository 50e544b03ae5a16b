import { Text } from '@mantine/core';
import type { OperatorQuery, OperatorRow, OperatorStatus } from '@obd/contract';
import {
  OPERATOR_SORT_FIELDS,
  OPERATOR_STATUSES,
  OPERATORS_PAGE_SIZE,
  OPERATORS_PATH,
  ROLES,
} from '@obd/contract/constants';
import { defineList, type FilterField, listSource, type QueryFilterName } from '../../list/declaration.ts';
import { dateTimeColumn, fieldColumn } from '../../list/format.ts';
import { ROLE_LABELS } from '../auth/roles.tsx';
import { OperatorActions } from './OperatorActions.tsx';

// The response schemas come with their requests (list/declaration.ts `listSource`): no zod in a list's first download.
const schemas = () => import('./schemas.ts');

/** The Operators screen (issue 11, admins only): who has access, with what role, and since when. */

export const OPERATORS_SCREEN_PATH = '/Operators';

const STATUS_LABELS: Record<OperatorStatus, string> = { active: 'Active', disabled: 'Disabled' };

function StatusText({ status }: { status: OperatorStatus }) {
  return (
    <Text component="span" size="sm" fw={700} c={status === 'active' ? 'green' : 'red'}>
      {STATUS_LABELS[status]}
    </Text>
  );
}

const OPERATOR_FILTERS: readonly FilterField<QueryFilterName<OperatorQuery>>[] = [
  { kind: 'text', name: 'email', label: 'Email', placeholder: 'e.g. example.com' },
  {
    kind: 'select',
    name: 'role',
    label: 'Role',
    options: [
      { value: '', label: 'All roles' },
      ...ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] })),
    ],
  },
  {
    kind: 'select',
    name: 'status',
    label: 'Status',
    options: [
      { value: '', label: 'All statuses' },
      ...OPERATOR_STATUSES.map((status) => ({ value: status, label: STATUS_LABELS[status] })),
    ],
  },
];

export const operatorsList = defineList({
  title: 'Operators',
  source: listSource(OPERATORS_PATH, async () => (await schemas()).operatorListSchema, 'operators'),
  pageSize: OPERATORS_PAGE_SIZE,
  filters: OPERATOR_FILTERS,
  columns: [
    { ...fieldColumn<OperatorRow, 'email'>('Email', 'email'), start: true },
    { header: 'Role', cell: (row) => ROLE_LABELS[row.role], nowrap: true, sortField: 'role' },
    // Active first ascending, then the disabled ones by when (the server sorts it as disabled_at).
    {
      header: 'Status',
      cell: (row) => <StatusText status={row.status} />,
      nowrap: true,
      sortField: 'status',
    },
    dateTimeColumn<OperatorRow, 'created_at'>('Created', 'created_at'),
    // A download of the visible columns names them by the export's headers (a 400 otherwise).
    {
      ...dateTimeColumn<OperatorRow, 'last_seen_at'>('Last seen', 'last_seen_at'),
      exportHeader: 'Last Seen',
    },
    {
      ...fieldColumn<OperatorRow, 'open_sessions'>('Open sessions', 'open_sessions'),
      exportHeader: 'Open Sessions',
    },
    {
      header: 'Actions',
      cell: (row) => <OperatorActions operator={row} />,
      nowrap: true,
      exported: false,
    },
  ],
  messages: {
    error: 'Failed to fetch operators',
    emptyFiltered: 'No operators found for the specified criteria.',
    emptyUnfiltered: 'No operators yet.',
  },
  sortFields: OPERATOR_SORT_FIELDS,
  // Live data: a search done before is asked again when shown.
  fetching: { staleTime: 0 },
  export: [
    { list: 'operators', format: 'csv', failedMessage: 'Failed to download the operators' },
    { list: 'operators', format: 'xlsx', failedMessage: 'Failed to download the operators' },
  ],
});
