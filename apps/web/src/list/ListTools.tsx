import { Button } from '@mantine/core';
import type { ColumnLayout, SavedView } from '@obd/contract';
import type { ComponentType } from 'react';
import type { ColumnsMenuProps } from './ColumnsMenu.tsx';
import { lazyPart, OnFirstUse } from './onFirstUse.tsx';
import { sameQuery, useSavedViews, viewsLabel } from './savedViews.ts';

/**
 * The list's Columns and Views buttons, drawn at once; their menus and dialogs are fetched on first
 * use (onFirstUse.tsx). Each stand-in is the very button its menu shows, so nothing moves when the
 * menu's code arrives.
 */

const columnsMenu = lazyPart(() =>
  import('./ColumnsMenu.tsx').then((m) => m.ColumnsMenu as ComponentType<ColumnsMenuProps<unknown>>),
);
const viewsMenu = lazyPart(() => import('./SavedViewsMenu.tsx').then((m) => m.SavedViewsMenu));

export function ColumnsTool<Row>(props: Omit<ColumnsMenuProps<Row>, 'openAtOnce'>) {
  return (
    <OnFirstUse
      part={columnsMenu}
      placeholder={(use) => (
        <Button variant="default" size="xs" aria-expanded={false} {...use}>
          Columns
        </Button>
      )}
      render={(ColumnsMenu, openAtOnce) => (
        <ColumnsMenu {...(props as ColumnsMenuProps<unknown>)} openAtOnce={openAtOnce} />
      )}
    />
  );
}

export function ViewsTool(props: {
  list: string;
  query: string;
  columns: ColumnLayout | null;
  opened: number | undefined;
  onOpen: (view: SavedView) => void;
  onClose: () => void;
}) {
  // The button names the view on screen: the views are asked for as the list draws, menu or not.
  const { views } = useSavedViews(props.list);
  const active = views.find((view) => view.id === props.opened && sameQuery(view.query, props.query));
  return (
    <OnFirstUse
      part={viewsMenu}
      placeholder={(use) => (
        <Button variant="default" size="xs" aria-haspopup="menu" aria-expanded={false} {...use}>
          {viewsLabel(active)}
        </Button>
      )}
      render={(SavedViewsMenu, openAtOnce) => <SavedViewsMenu {...props} openAtOnce={openAtOnce} />}
    />
  );
}
