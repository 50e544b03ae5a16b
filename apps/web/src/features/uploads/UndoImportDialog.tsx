import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ImportRecord } from '@obd/contract';
import { ApiError } from '../../lib/api.ts';

/** The undo's confirmation (UndoImport.tsx): fetched on the first click, with Mantine's Modal and FocusTrap. */
export function UndoImportDialog({
  record,
  opened,
  onClose,
  onConfirm,
  pending,
  error,
}: {
  record: ImportRecord;
  opened: boolean;
  onClose: () => void;
  onConfirm: () => void;
  pending: boolean;
  error: Error | null;
}) {
  const replaces = record.kind === 'update_commands';
  return (
    <Modal opened={opened} onClose={onClose} title={`Undo import #${record.id}?`}>
      <Stack>
        <Text size="sm">
          The rows this import added ({record.fileName}) are removed
          {replaces ? ', and the commands it replaced are put back' : ''}. If some of them were edited or
          removed since, nothing is changed and you are told how many.
        </Text>
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error instanceof ApiError ? error.message : 'The undo failed. Try again.'}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Keep the import
          </Button>
          <Button color="red" loading={pending} onClick={onConfirm}>
            Undo import
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
