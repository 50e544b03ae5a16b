import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ImportRecord } from '@obd/contract';
import { importUndoPath } from '@obd/contract/constants';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, apiFetchParsedLater } from '../../lib/api.ts';
import { dateTimeText } from '../../list/format.ts';
import { importSchemas } from '../../upload/importProgress.ts';
import { hasRole, useFreshRole } from '../auth/roles.tsx';

/**
 * Undo of an import (issue 15): a button on a succeeded import for editors and admins, a dialog
 * to confirm, the server's sentence when it refuses (409: rows changed since), and "Undone" with
 * its time once done. Everything shown of imports is asked again after an undo.
 */
export function UndoImport({ record }: { record: ImportRecord }) {
  const { role } = useFreshRole();
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const undo = useMutation({
    mutationFn: () =>
      apiFetchParsedLater(
        async () => (await importSchemas()).importUndoResponseSchema,
        importUndoPath(record.id),
        {
          method: 'POST',
        },
      ),
    onSuccess: async () => {
      setOpen(false);
      await queryClient.invalidateQueries();
    },
  });

  if (record.status === 'undone')
    return (
      <Text component="span" size="sm" c="dimmed">
        Undone{record.undoneAt ? ` ${dateTimeText(record.undoneAt)}` : ''}
      </Text>
    );
  if (record.status !== 'succeeded' || !hasRole(role, 'editor')) return null;
  const replaces = record.kind === 'update_commands';
  return (
    <>
      <Button
        size="compact-sm"
        variant="light"
        color="red"
        onClick={() => {
          undo.reset();
          setOpen(true);
        }}
        aria-label={`Undo import #${record.id}`}
      >
        Undo
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={`Undo import #${record.id}?`}>
        <Stack>
          <Text size="sm">
            The rows this import added ({record.fileName}) are removed
            {replaces ? ', and the commands it replaced are put back' : ''}. If some of them were edited or
            removed since, nothing is changed and you are told how many.
          </Text>
          {undo.error && (
            <Alert color="red" variant="light" role="alert">
              {undo.error instanceof ApiError ? undo.error.message : 'The undo failed. Try again.'}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              Keep the import
            </Button>
            <Button color="red" loading={undo.isPending} onClick={() => undo.mutate()}>
              Undo import
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
