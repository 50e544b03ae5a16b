import { Button, Menu } from '@mantine/core';
import type { OperatorRow } from '@obd/contract';
import { useEffect, useRef, useState } from 'react';
import type { Action } from './OperatorActionDialog.tsx';

/** What the row's menu is given; `openAtOnce` when the click that fetched it should open it. */
export interface OperatorActionsMenuProps {
  operator: OperatorRow;
  choose: (action: Action, operator: OperatorRow) => void;
  openAtOnce: boolean;
}

/**
 * An Operators row's Actions menu, fetched the first time a row's Actions button is used
 * (OperatorActions.tsx): Mantine's Menu, Popover and floating-ui are not in the screen's first
 * download (issue 14). The dialog of the chosen action is the provider's.
 */
export function OperatorActionsMenu({ operator, choose, openAtOnce }: OperatorActionsMenuProps) {
  const [opened, setOpened] = useState(false);
  const target = useRef<HTMLButtonElement>(null);
  // Fetched by a click on its stand-in: this button takes the focus the stand-in had, then the menu
  // opens — drawn closed first, because the menu notes the element to give focus back to on Escape
  // when it opens, not when it is first drawn open.
  useEffect(() => {
    if (!openAtOnce) return;
    target.current?.focus();
    setOpened(true);
  }, [openAtOnce]);
  const disabled = operator.status === 'disabled';
  return (
    <Menu position="bottom-end" withinPortal opened={opened} onChange={setOpened}>
      <Menu.Target>
        <Button
          ref={target}
          size="compact-sm"
          variant="light"
          aria-label={`Actions for ${operator.email}`}
          data-actions-for={operator.id}
        >
          Actions
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => choose('role', operator)}>Change role</Menu.Item>
        {disabled ? (
          <Menu.Item onClick={() => choose('enable', operator)}>Enable</Menu.Item>
        ) : (
          <Menu.Item color="red" onClick={() => choose('disable', operator)}>
            Disable
          </Menu.Item>
        )}
        <Menu.Item onClick={() => choose('sessions', operator)} disabled={operator.open_sessions === 0}>
          End all sessions
        </Menu.Item>
        <Menu.Item onClick={() => choose('reset', operator)}>Issue password reset code</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
