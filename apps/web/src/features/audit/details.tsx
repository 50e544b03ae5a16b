import { Code, Text } from '@mantine/core';
import type { AuditEvent } from '@obd/contract';
import { AUDIT_ACTION_LABELS, AUDIT_PATH } from '@obd/contract/constants';
import { detailTable } from '../../list/DetailScreen.tsx';
import type { DetailDeclaration, SummaryField } from '../../list/detail.ts';
import { cellText, dateTimeText } from '../../list/format.ts';
import { browserText } from '../account/browser.ts';
import { AUDIT_PATHS, OperatorLink, schemas, TargetLink } from './declarations.tsx';

/** One audit event (`/AuditLog/details?id=`): apart from the list, which need not download it. */

const field = (label: string, value: (event: AuditEvent) => unknown): SummaryField<AuditEvent> => ({
  label,
  value: (event) => cellText(value(event)),
});

/** A detail's value: text as it is, anything else as JSON. */
function DetailValue({ value }: { value: unknown }) {
  if (value !== null && typeof value === 'object') {
    return (
      <Code block style={{ whiteSpace: 'pre-wrap' }}>
        {JSON.stringify(value, null, 2)}
      </Code>
    );
  }
  return <Text size="sm">{cellText(value)}</Text>;
}

type DetailEntry = { name: string; value: unknown };

export const auditEventDetails: DetailDeclaration<AuditEvent> = {
  title: 'Audit event',
  endpoint: AUDIT_PATH,
  schema: async () => (await schemas()).auditEventSchema,
  listPath: AUDIT_PATHS.list,
  messages: { notFound: 'The audit event was not found.', error: 'Something went wrong' },
  summary: [
    field('Event', (event) => `#${event.id}`),
    field('Time (UTC)', (event) => dateTimeText(event.at)),
    field('Action', (event) => AUDIT_ACTION_LABELS[event.action]),
    { label: 'Operator', value: (event) => <OperatorLink event={event} /> },
    { label: 'Target', value: (event) => <TargetLink event={event} /> },
    field('Address', (event) => event.address),
    field('Browser', (event) => browserText(event.user_agent)),
    field('User agent', (event) => event.user_agent),
  ],
  sections: [
    detailTable<AuditEvent, DetailEntry>({
      title: 'Details',
      rows: (event) => Object.entries(event.details).map(([name, value]) => ({ name, value })),
      columns: [
        { header: 'Field', cell: (entry) => entry.name, start: true, nowrap: true },
        { header: 'Value', cell: (entry) => <DetailValue value={entry.value} />, start: true, prose: true },
      ],
      empty: 'No details.',
    }),
  ],
};
