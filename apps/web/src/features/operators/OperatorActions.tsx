import { Alert, Button, Group, Menu, Modal, NativeSelect, Stack, Text } from '@mantine/core';
import type { OperatorRow, Role } from '@obd/contract';
import { ROLES } from '@obd/contract/constants';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useState } from 'react';
import { failureText } from '../auth/AuthLayout.tsx';
import { ROLE_LABELS } from '../auth/roles.tsx';
import { meQueryOptions } from '../auth/session.ts';
import { OneTimeCode } from '../shared/OneTimeCode.tsx';
import { endOperatorSessions, issuePasswordReset, patchOperator, refreshOperators } from './api.ts';

type Action = 'role' | 'disable' | 'enable' | 'sessions' | 'reset';

/** What an admin is warned of when the operator is themselves. */
const SIGNS_YOU_OUT: ReadonlySet<Action> = new Set(['role', 'disable', 'sessions']);

const TITLES: Record<Action, string> = {
  role: 'Change role',
  disable: 'Disable operator',
  enable: 'Enable operator',
  sessions: 'End all sessions',
  reset: 'Issue a password reset code',
};

type Choose = (action: Action, operator: OperatorRow) => void;
const ChooseAction = createContext<Choose | null>(null);

/**
 * Holds the dialog of the action chosen in a row, above the list: the list shows its loading state
 * (and so redraws its rows) while it is asked again after a change, and the dialog — a reset code
 * still to be copied — must outlive that.
 */
export function OperatorActionsProvider({ children }: { children: ReactNode }) {
  const [chosen, setChosen] = useState<{ action: Action; operator: OperatorRow } | null>(null);
  const choose = useCallback<Choose>((action, operator) => setChosen({ action, operator }), []);
  return (
    <ChooseAction.Provider value={choose}>
      {children}
      <Modal
        opened={chosen !== null}
        onClose={() => setChosen(null)}
        title={chosen ? `${TITLES[chosen.action]}: ${chosen.operator.email}` : ''}
        size="lg"
      >
        {chosen && (
          <ActionDialog action={chosen.action} operator={chosen.operator} onDone={() => setChosen(null)} />
        )}
      </Modal>
    </ChooseAction.Provider>
  );
}

/** The row's Actions menu; the dialog is the provider's. */
export function OperatorActions({ operator }: { operator: OperatorRow }) {
  const choose = useContext(ChooseAction);
  if (!choose) throw new Error('OperatorActions needs an OperatorActionsProvider above it');
  const disabled = operator.status === 'disabled';
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button size="compact-sm" variant="light" aria-label={`Actions for ${operator.email}`}>
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

function ActionDialog({
  action,
  operator,
  onDone,
}: {
  action: Action;
  operator: OperatorRow;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const self = useQuery(meQueryOptions).data?.id === operator.id;
  const [role, setRole] = useState<Role>(operator.role);
  const mutation = useMutation({
    mutationFn: async () => {
      switch (action) {
        case 'role':
          return { kind: 'changed' as const, row: await patchOperator(operator.id, { role }) };
        case 'disable':
          return { kind: 'changed' as const, row: await patchOperator(operator.id, { disabled: true }) };
        case 'enable':
          return { kind: 'changed' as const, row: await patchOperator(operator.id, { disabled: false }) };
        case 'sessions':
          return { kind: 'ended' as const, ...(await endOperatorSessions(operator.id)) };
        case 'reset':
          return { kind: 'reset' as const, ...(await issuePasswordReset(operator.id)) };
      }
    },
    onSuccess: async (result) => {
      await refreshOperators(queryClient);
      // A reset code stays on screen to be copied; the other actions are done.
      if (result.kind !== 'reset') onDone();
    },
  });

  if (mutation.data?.kind === 'reset') {
    return (
      <Stack gap="md">
        <OneTimeCode
          code={mutation.data.code}
          expiresAt={mutation.data.expiresAt}
          note={`Give the code to ${operator.email}: they enter it with their e-mail and a new password on the "Reset password" page (/reset-password). Their sessions end when they use it.`}
        />
        <Group justify="flex-end">
          <Button onClick={onDone}>Done</Button>
        </Group>
      </Stack>
    );
  }

  const explanation: Record<Action, string> = {
    role: 'Viewers read every list; editors also upload; admins also manage operators and read the audit log.',
    disable: `${operator.email} is signed out everywhere at once and cannot sign in until enabled again.`,
    enable: `${operator.email} can sign in again with their password.`,
    sessions: `Ends ${operator.open_sessions === 1 ? 'the open session' : `all ${operator.open_sessions} open sessions`} of ${operator.email}: their next request asks them to sign in again.`,
    reset: `A one-time code, valid for 24 hours, with which ${operator.email} can choose a new password. Earlier codes stop working.`,
  };
  const confirm: Record<Action, string> = {
    role: 'Save role',
    disable: 'Disable',
    enable: 'Enable',
    sessions: 'End sessions',
    reset: 'Issue code',
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        mutation.mutate();
      }}
    >
      <Stack gap="md">
        <Text size="sm">{explanation[action]}</Text>
        {self && SIGNS_YOU_OUT.has(action) && (
          <Alert color="yellow" variant="light" title="This is your own account" role="note">
            {action === 'role'
              ? 'Below admin, you can no longer manage operators or read the audit log.'
              : 'You are signed out at once, in this browser too.'}
          </Alert>
        )}
        {action === 'role' && (
          <NativeSelect
            label="Role"
            value={role}
            onChange={(event) => setRole(event.currentTarget.value as Role)}
            data={ROLES.map((value) => ({ value, label: ROLE_LABELS[value] }))}
          />
        )}
        {mutation.isError && (
          <Alert color="red" variant="light" role="alert">
            {failureText(mutation.error, `${TITLES[action]} failed. Please try again.`)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button
            type="submit"
            color={action === 'disable' ? 'red' : undefined}
            loading={mutation.isPending}
            disabled={action === 'role' && role === operator.role}
          >
            {confirm[action]}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
