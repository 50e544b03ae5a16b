import { Button } from '@mantine/core';
import type { OperatorRow } from '@obd/contract';
import { createContext, type ReactNode, useContext, useState } from 'react';
import { lazyPart, OnFirstUse, useDialogOnFirstUse } from '../../list/onFirstUse.tsx';
import type { Action, ChosenAction } from './OperatorActionDialog.tsx';

/*
 * The row actions of the Operators list (issue 11). Their menu and dialog are fetched on first use
 * (issue 14: Menu, Popover, floating-ui, Modal and FocusTrap, ~40 kB gzip, are not in the screen's
 * first download): each row draws its Actions button at once; pointing at it or focusing it fetches
 * both the menu and the dialog ahead, a click opens the menu once its code is in.
 */

const actionsMenu = lazyPart(() => import('./OperatorActionsMenu.tsx').then((m) => m.OperatorActionsMenu));
const actionDialog = lazyPart(() => import('./OperatorActionDialog.tsx').then((m) => m.OperatorActionDialog));

/** Fetches the dialog ahead: a failed download is tried again, and reported, when an action is chosen. */
const fetchDialogAhead = () => {
  actionDialog.load().catch(() => undefined);
};

type Choose = (action: Action, operator: OperatorRow) => void;
const ChooseAction = createContext<Choose | null>(null);

/**
 * Where the focus goes when an action's dialog closes: the row's Actions button — found anew, the
 * rows are drawn anew when the list is asked again after a change — or, when the row has left the
 * list (disabled under a status filter, say), the list's table, whose scrolling box takes the focus
 * (DataTable.tsx).
 */
function actionsButtonOrList(operator: OperatorRow, listTitle: string) {
  const button = document.querySelector<HTMLElement>(`[data-actions-for="${operator.id}"]`);
  if (button) return button;
  const table = [...document.querySelectorAll('table')].find(
    (t) => t.getAttribute('aria-label') === listTitle,
  );
  return table?.closest<HTMLElement>('[tabindex]');
}

/**
 * Holds the dialog of the action chosen in a row, above the list: the list shows its loading state
 * (and so redraws its rows) while it is asked again after a change, and the dialog — a reset code
 * still to be copied — must outlive that. `listTitle` is the list's, naming its table.
 */
export function OperatorActionsProvider({ listTitle, children }: { listTitle: string; children: ReactNode }) {
  const [chosen, setChosen] = useState<ChosenAction | null>(null);
  const dialog = useDialogOnFirstUse(actionDialog);
  const Dialog = dialog.Dialog;
  const choose: Choose = (action, operator) => {
    setChosen({ action, operator });
    // Opened from the menu's item, gone once the menu closed: the Modal alone would give focus back
    // to nothing, the page body.
    dialog.openReturningFocusTo(() => actionsButtonOrList(operator, listTitle));
  };
  const close = () => {
    dialog.close();
    setChosen(null);
  };
  return (
    <ChooseAction.Provider value={choose}>
      {children}
      {Dialog && <Dialog chosen={chosen} opened={dialog.opened && chosen !== null} onClose={close} />}
    </ChooseAction.Provider>
  );
}

/** The row's Actions button; its menu is fetched on first use, the dialog is the provider's. */
export function OperatorActions({ operator }: { operator: OperatorRow }) {
  const choose = useContext(ChooseAction);
  if (!choose) throw new Error('OperatorActions needs an OperatorActionsProvider above it');
  return (
    <OnFirstUse
      part={actionsMenu}
      placeholder={(use) => (
        <Button
          size="compact-sm"
          variant="light"
          aria-label={`Actions for ${operator.email}`}
          data-actions-for={operator.id}
          aria-haspopup="menu"
          aria-expanded={false}
          onClick={() => {
            fetchDialogAhead();
            use.onClick();
          }}
          onPointerEnter={() => {
            fetchDialogAhead();
            use.onPointerEnter();
          }}
          onFocus={() => {
            fetchDialogAhead();
            use.onFocus();
          }}
        >
          Actions
        </Button>
      )}
      render={(Menu, openAtOnce) => <Menu operator={operator} choose={choose} openAtOnce={openAtOnce} />}
    />
  );
}
