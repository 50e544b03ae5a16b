import { Button, Text } from '@mantine/core';
import type { ImportRecord } from '@obd/contract';
import { importUndoPath } from '@obd/contract/constants';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetchParsedLater } from '../../lib/api.ts';
import { dateTimeText } from '../../list/format.ts';
import { lazyPart, useDialogOnFirstUse } from '../../list/onFirstUse.tsx';
import { importSchemas } from '../../upload/importProgress.ts';
import { hasRole, useFreshRole } from '../auth/roles.tsx';

// The confirmation's Modal and FocusTrap (~10 kB gzip) are not in Import History's first download (issue 14).
const undoDialog = lazyPart(() => import('./UndoImportDialog.tsx').then((m) => m.UndoImportDialog));

/**
 * Undo of an import (issue 15): a button on a succeeded import for editors and admins, a dialog
 * to confirm, the server's sentence when it refuses (409: rows changed since), and "Undone" with
 * its time once done. Everything shown of imports is asked again after an undo.
 */
export function UndoImport({ record }: { record: ImportRecord }) {
  const { role } = useFreshRole();
  const dialog = useDialogOnFirstUse(undoDialog);
  const Dialog = dialog.Dialog;
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
      dialog.close();
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
  return (
    <>
      <Button
        size="compact-sm"
        variant="light"
        color="red"
        onClick={() => {
          undo.reset();
          dialog.open();
        }}
        aria-label={`Undo import #${record.id}`}
        {...dialog.fetchAhead}
      >
        Undo
      </Button>
      {Dialog && (
        <Dialog
          record={record}
          opened={dialog.opened}
          onClose={dialog.close}
          onConfirm={() => undo.mutate()}
          pending={undo.isPending}
          error={undo.error}
        />
      )}
    </>
  );
}
