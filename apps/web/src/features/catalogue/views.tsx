import { Badge, Button, Card, Code, Group, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ActuationCommand, ActuationDetail, CustomCommand, SpfCommand } from '@obd/contract';
import { DataTable } from '../../list/DataTable.tsx';
import type { Column } from '../../list/declaration.ts';
import { cellText, fieldColumn, keyedByOccurrence } from '../../list/format.ts';
import { lazyPart, useDialogOnFirstUse } from '../../list/onFirstUse.tsx';

const referenceDialog = lazyPart(() => import('./ReferenceDialog.tsx').then((m) => m.ReferenceDialog));

type SpfDetail = SpfCommand['details'][number];

/** The details of an actuation type, in the server's order (they have no identity of their own). */
const ACTUATION_DETAIL_COLUMNS: readonly Column<ActuationDetail>[] = [
  fieldColumn<ActuationDetail, 'pid'>('PID', 'pid'),
  fieldColumn<ActuationDetail, 'actuation_subtype'>('Actuation Subtype', 'actuation_subtype'),
  fieldColumn<ActuationDetail, 'last_subtype'>('Last Subtype', 'last_subtype'),
  fieldColumn<ActuationDetail, 'seed_key_variant'>('Seed Key Variant', 'seed_key_variant'),
  fieldColumn<ActuationDetail, 'message'>('Message', 'message'),
  fieldColumn<ActuationDetail, 'message_item'>('Message Item', 'message_item'),
  fieldColumn<ActuationDetail, 'success_check'>('Success Check', 'success_check'),
];

const SPF_DETAIL_COLUMNS: readonly Column<SpfDetail>[] = [
  fieldColumn<SpfDetail, 'pid'>('PID', 'pid'),
  fieldColumn<SpfDetail, 'message'>('Message', 'message'),
  fieldColumn<SpfDetail, 'command_type'>('Command Type', 'command_type'),
];

/** Details are never reordered: their position is their key. */
const byPosition = (_row: unknown, index: number) => index;

/** One card per actuation type: its message and its details (spec §2.9). */
export function ActuationCards({ groups }: { groups: readonly ActuationCommand[] }) {
  return (
    <Stack gap="md">
      {groups.map((group) => (
        <Card key={group.actuation_type} withBorder radius="md" padding="md" component="section">
          <Stack gap="xs">
            <Title order={3} size="h4">
              {group.actuation_type}
            </Title>
            <Text size="sm" c="dimmed">
              {`Message: ${cellText(group.message)}`}
            </Text>
            <DataTable
              label={`${group.actuation_type} details`}
              columns={ACTUATION_DETAIL_COLUMNS}
              rows={group.details}
              rowKey={byPosition}
              compact
            />
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}

/** One card per SPF function: 'Hard Coded' True/False and its PID / Message / Command Type table (spec §2.10). */
export function SpfCards({ groups }: { groups: readonly SpfCommand[] }) {
  return (
    <Stack gap="md">
      {groups.map((group) => (
        <Card key={group.function_name} withBorder radius="md" padding="md" component="section">
          <Stack gap="xs">
            <Group justify="space-between" align="center">
              <Title order={3} size="h4">
                {group.function_name}
              </Title>
              <Badge variant="light" color={group.hard_coded ? 'teal' : 'gray'} tt="none">
                {`Hard Coded: ${group.hard_coded ? 'True' : 'False'}`}
              </Badge>
            </Group>
            <DataTable
              label={`${group.function_name} commands`}
              columns={SPF_DETAIL_COLUMNS}
              rows={group.details}
              rowKey={byPosition}
              compact
            />
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}

/** The Variants cell of a custom command. */
export function variantsText(row: CustomCommand): string {
  return row.variant.length > 0 ? row.variant.join(', ') : '-';
}

/** The Commands cell: per variant of `commands[0]` a heading and its list (decisions §3). */
export function VariantCommands({ row }: { row: CustomCommand }) {
  const byVariant = Object.entries(row.commands[0] ?? {});
  if (byVariant.length === 0) return <>-</>;
  return (
    <Stack gap={6} align="flex-start">
      {byVariant.map(([variant, commands]) => (
        <div key={variant}>
          <Text size="sm" fw={600}>
            {variant}
          </Text>
          <List size="sm" ta="left">
            {keyedByOccurrence(commands).map(({ key, value }) => (
              <List.Item key={key}>
                <Code>{value}</Code>
              </List.Item>
            ))}
          </List>
        </div>
      ))}
    </Stack>
  );
}

/** The names of a make list, as a plain list. */
export function NameList({ label, names }: { label: string; names: readonly string[] }) {
  return (
    <Card withBorder radius="md" padding="md">
      <List aria-label={label} spacing={4}>
        {names.map((name) => (
          <List.Item key={name}>{name}</List.Item>
        ))}
      </List>
    </Card>
  );
}

/** Model names in a numbered grid. */
export function NumberedGrid({ label, names }: { label: string; names: readonly string[] }) {
  return (
    <SimpleGrid
      component="ol"
      aria-label={label}
      cols={{ base: 1, xs: 2, sm: 3, lg: 4 }}
      spacing="sm"
      p={0}
      m={0}
    >
      {names.map((name, index) => (
        <Card key={name} component="li" withBorder radius="md" padding="sm" style={{ listStyle: 'none' }}>
          <Group gap="sm" wrap="nowrap">
            <Badge variant="light" radius="sm" miw={36}>
              {index + 1}
            </Badge>
            <Text size="sm">{name}</Text>
          </Group>
        </Card>
      ))}
    </SimpleGrid>
  );
}

/**
 * A live-data row's reference data (bit positions, scaling, value map), opened in a dialog whose
 * code (Mantine's Modal and FocusTrap, ~10 kB gzip) comes on the first click (issue 14).
 */
export function ReferenceButton({ name, reference }: { name: string; reference: unknown }) {
  const dialog = useDialogOnFirstUse(referenceDialog);
  const Dialog = dialog.Dialog;
  if (reference === null || reference === undefined || reference === '') return <>-</>;
  return (
    <>
      <Button
        size="compact-sm"
        variant="light"
        onClick={dialog.open}
        aria-label={`View reference data of ${name}`}
        {...dialog.fetchAhead}
      >
        View
      </Button>
      {Dialog && <Dialog name={name} reference={reference} opened={dialog.opened} onClose={dialog.close} />}
    </>
  );
}
