import { Alert, Button, Group, Menu, Modal, NativeSelect, Stack, Text } from '@mantine/core';
import { type OperatorRow, ROLES, type Role } from '@obd/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { failureText } from '../auth/AuthLayout.tsx';
import { ROLE_LABELS } from '../auth/roles.ts';
import { OneTimeCode } from '../shared/OneTimeCode.tsx';
import { endOperatorSessions, issuePasswordReset, patchOperator, refreshOperators } from './api.ts';

type Action = 'role' | 'disable' | 'enable' | 'sessions' | 'reset';

const TITLES: Record<Action, string> = {
  role: 'Change role',
  disable: 'Disable operator',
  enable: 'Enable operator',
  sessions: 'End all sessions',
  reset: 'Issue a password reset code',
};

/** The row's Actions menu and the dialog of the action chosen. */
export function OperatorActions({ operator }: { operator: OperatorRow }) {
  const [action, setAction] = useState<Action | null>(null);
  const disabled = operator.status === 'disabled';
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button size="compact-sm" variant="light" aria-label={`Actions for ${operator.email}`}>
            Actions
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={() => setAction('role')}>Change role</Menu.Item>
          {disabled ? (
            <Menu.Item onClick={() => setAction('enable')}>Enable</Menu.Item>
          ) : (
            <Menu.Item color="red" onClick={() => setAction('disable')}>
              Disable
            </Menu.Item>
          )}
          <Menu.Item onClick={() => setAction('sessions')} disabled={operator.open_sessions === 0}>
            End all sessions
          </Menu.Item>
          <Menu.Item onClick={() => setAction('reset')}>Issue password reset code</Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Modal
        opened={action !== null}
        onClose={() => setAction(null)}
        title={action ? `${TITLES[action]}: ${operator.email}` : ''}
        size="lg"
      >
        {action && <ActionDialog action={action} operator={operator} onDone={() => setAction(null)} />}
      </Modal>
    </>
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
