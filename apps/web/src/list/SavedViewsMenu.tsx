import { Alert, Button, Checkbox, Group, Menu, Modal, Stack, Text, TextInput } from '@mantine/core';
import type { ColumnLayout, SavedView } from '@obd/contract';
import { type FormEvent, useRef, useState } from 'react';
import { useReturnFocusOnClose } from './onFirstUse.tsx';
import { sameQuery, useSavedViews, VIEW_PARAM, viewErrorText, viewsLabel } from './savedViews.ts';

type Dialog = { kind: 'save' } | { kind: 'rename'; view: SavedView } | { kind: 'link'; view: SavedView };

/**
 * A list's views menu (issue 12): open a saved view, save the list as it is (filters, sort,
 * columns) under a name — private or shared — and, on the view on screen, update it, rename it,
 * share or unshare it, copy its link, or delete it (its owner; an admin too for a shared one).
 */
export function SavedViewsMenu({
  list,
  query,
  columns,
  opened,
  onOpen,
  onClose,
  openAtOnce = false,
}: {
  list: string;
  /** The list's address query now, without the page. */
  query: string;
  columns: ColumnLayout | null;
  opened: number | undefined;
  onOpen: (view: SavedView) => void;
  onClose: () => void;
  /** Open the menu as it mounts: a click on its stand-in (ListTools.tsx) fetched it. */
  openAtOnce?: boolean;
}) {
  const { views, create, update, remove } = useSavedViews(list);
  const [dialog, setDialog] = useState<Dialog | undefined>(undefined);
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const active = views.find((view) => view.id === opened && sameQuery(view.query, query));
  const viewsButton = useRef<HTMLButtonElement>(null);
  const returnFocusOnClose = useReturnFocusOnClose(dialog !== undefined);

  const show = (next: Dialog | undefined) => {
    setError(undefined);
    // Every dialog is opened from the menu's item, gone once the menu closed: the Modal alone would
    // give focus back to nothing, the page body.
    if (next) returnFocusOnClose(() => viewsButton.current);
    setDialog(next);
    if (next?.kind === 'rename') setName(next.view.name);
    if (next?.kind === 'save') {
      setName('');
      setShared(false);
    }
  };
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    try {
      if (dialog?.kind === 'save') onOpen(await create.mutateAsync({ name, shared, query, columns }));
      else if (dialog?.kind === 'rename') await update.mutateAsync({ id: dialog.view.id, change: { name } });
      show(undefined);
    } catch (failed) {
      setError(viewErrorText(failed, 'The view could not be saved. Try again.'));
    }
  };
  const change = async (action: () => Promise<unknown>) => {
    try {
      setError(undefined);
      await action();
    } catch (failed) {
      setError(viewErrorText(failed, 'The view could not be changed. Try again.'));
    }
  };
  const link = (view: SavedView) =>
    `${window.location.origin}${window.location.pathname}?${new URLSearchParams({ [VIEW_PARAM]: String(view.id) })}`;

  return (
    <>
      <Menu position="bottom-end" shadow="md" withinPortal defaultOpened={openAtOnce}>
        <Menu.Target>
          <Button ref={viewsButton} variant="default" size="xs">
            {viewsLabel(active)}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {views.length === 0 && <Menu.Label>No saved views yet</Menu.Label>}
          {views.map((view) => (
            <Menu.Item key={view.id} onClick={() => onOpen(view)}>
              {view.name}
              {view.shared ? ` · shared${view.editable ? '' : ` by ${view.owner_email ?? 'someone'}`}` : ''}
            </Menu.Item>
          ))}
          <Menu.Divider />
          <Menu.Item onClick={() => show({ kind: 'save' })}>Save as new view…</Menu.Item>
          {active && (
            <>
              <Menu.Item onClick={() => show({ kind: 'link', view: active })}>Link to this view…</Menu.Item>
              {active.editable && (
                <>
                  <Menu.Item
                    onClick={() =>
                      change(() => update.mutateAsync({ id: active.id, change: { query, columns } }))
                    }
                  >
                    {`Update "${active.name}" with this list`}
                  </Menu.Item>
                  <Menu.Item onClick={() => show({ kind: 'rename', view: active })}>Rename…</Menu.Item>
                  <Menu.Item
                    onClick={() =>
                      change(() => update.mutateAsync({ id: active.id, change: { shared: !active.shared } }))
                    }
                  >
                    {active.shared ? 'Make private' : 'Share with everyone'}
                  </Menu.Item>
                  <Menu.Item
                    color="red"
                    onClick={() =>
                      change(async () => {
                        if (!window.confirm(`Delete the view "${active.name}"?`)) return;
                        await remove.mutateAsync(active.id);
                        onClose();
                      })
                    }
                  >
                    Delete view
                  </Menu.Item>
                </>
              )}
            </>
          )}
        </Menu.Dropdown>
      </Menu>
      {error && !dialog && (
        <Alert color="red" withCloseButton onClose={() => setError(undefined)} role="alert">
          {error}
        </Alert>
      )}
      <Modal
        opened={dialog !== undefined}
        onClose={() => show(undefined)}
        title={
          dialog?.kind === 'save' ? 'Save view' : dialog?.kind === 'rename' ? 'Rename view' : 'Link to view'
        }
      >
        {dialog?.kind === 'link' ? (
          <Stack>
            <Text size="sm">
              {dialog.view.shared
                ? 'Anyone signed in can open this view with the link:'
                : 'This view is private: only you can open the link. Share it to send it to others.'}
            </Text>
            <TextInput
              label="Link"
              readOnly
              value={link(dialog.view)}
              onFocus={(e) => e.currentTarget.select()}
            />
          </Stack>
        ) : (
          <form onSubmit={submit}>
            <Stack>
              <TextInput
                label="Name"
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                required
                data-autofocus
              />
              {dialog?.kind === 'save' && (
                <Checkbox
                  label="Share with everyone"
                  checked={shared}
                  onChange={(e) => setShared(e.currentTarget.checked)}
                />
              )}
              {error && (
                <Text c="red" size="sm" role="alert">
                  {error}
                </Text>
              )}
              <Group justify="flex-end">
                <Button type="submit" loading={create.isPending || update.isPending}>
                  Save
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Modal>
    </>
  );
}
