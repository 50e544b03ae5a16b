import { Alert, Button, Group, Modal, NativeSelect, Stack, Text } from '@mantine/core';
import type { OperatorRow, Role } from '@obd/contract';
import { ROLES } from '@obd/contract/constants';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { failureText } from '../auth/AuthLayout.tsx';
import { ROLE_LABELS } from '../auth/roles.tsx';
import { meQueryOptions } from '../auth/session.ts';
import { OneTimeCode } from '../shared/OneTimeCode.tsx';
import { endOperatorSessions, issuePasswordReset, patchOperator, refreshOperators } from './api.ts';

/*
 * The dialog of an action chosen in an Operators row (OperatorActions.tsx), fetched the first time
 * one is chosen or its row's Actions button is pointed at or focused: Mantine's Modal and FocusTrap
 * and the forms below are not in the Operators screen's first download (issue 14).
 */

export type Action = 'role' | 'disable' | 'enable' | 'sessions' | 'reset';

/** An action and the operator it is for. */
export interface ChosenAction {
  action: Action;
  operator: OperatorRow;
}

/** What an admin is warned of when the operator is themselves. */
const SIGNS_YOU_OUT: ReadonlySet<Action> = new Set(['role', 'disable', 'sessions']);

const TITLES: Record<Action, string> = {
  role: 'Change role',
  disable: 'Disable operator',
  enable: 'Enable operator',
  sessions: 'End all sessions',
  reset: 'Issue a password reset code',
};

/** The chosen action's dialog; `chosen` is null once it is closed (while it fades out). */
export function OperatorActionDialog({
  chosen,
  opened,
  onClose,
}: {
  chosen: ChosenAction | null;
  opened: boolean;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={chosen ? `${TITLES[chosen.action]}: ${chosen.operator.email}` : ''}
      size="lg"
    >
      {chosen && <ActionDialog action={chosen.action} operator={chosen.operator} onDone={onClose} />}
    </Modal>
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
