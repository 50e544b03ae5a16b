import { Alert, Button, Group, NativeSelect, NumberInput, Paper, Stack, Text, Title } from '@mantine/core';
import type { PendingInvitation, Role } from '@obd/contract';
import { INVITATION_DAYS, ROLES, signupLink } from '@obd/contract/constants';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DataTable } from '../../list/DataTable.tsx';
import { cellText, dateTimeText } from '../../list/format.ts';
import { ErrorState, LoadingState } from '../../list/ListStates.tsx';
import { failureText } from '../auth/AuthLayout.tsx';
import { ROLE_LABELS } from '../auth/roles.tsx';
import { expiryText, OneTimeCode } from '../shared/OneTimeCode.tsx';
import { createInvitation, invitationsQueryOptions, refreshOperators, revokeInvitation } from './api.ts';

/** The invite form and the pending invitations, under the Operators list. */
export function Invitations() {
  return (
    <Stack gap="md" component="section" aria-label="Invitations">
      <Title order={3}>Invitations</Title>
      <InviteForm />
      <PendingInvitations />
    </Stack>
  );
}

/** Role and expiry; the answer's one-time code and sign-up link, each copyable. */
function InviteForm() {
  const queryClient = useQueryClient();
  const [role, setRole] = useState<Role>('viewer');
  const [days, setDays] = useState<number | string>(INVITATION_DAYS.default);
  const invite = useMutation({
    mutationFn: () => createInvitation({ role, expiresInDays: Number(days) }),
    onSuccess: () => refreshOperators(queryClient),
  });
  const daysValid =
    Number.isInteger(Number(days)) &&
    Number(days) >= INVITATION_DAYS.min &&
    Number(days) <= INVITATION_DAYS.max;

  return (
    <Paper withBorder p="md" radius="md">
      <form
        aria-label="Invite an operator"
        onSubmit={(event) => {
          event.preventDefault();
          if (daysValid) invite.mutate();
        }}
      >
        <Stack gap="md">
          <Text fw={600}>Invite an operator</Text>
          <Group align="flex-start" gap="md" wrap="wrap">
            <NativeSelect
              label="Role"
              value={role}
              onChange={(event) => setRole(event.currentTarget.value as Role)}
              data={ROLES.map((value) => ({ value, label: ROLE_LABELS[value] }))}
              w={{ base: '100%', xs: 200 }}
            />
            <NumberInput
              label="Expires in (days)"
              description={`${INVITATION_DAYS.min} to ${INVITATION_DAYS.max}`}
              value={days}
              onChange={setDays}
              min={INVITATION_DAYS.min}
              max={INVITATION_DAYS.max}
              allowDecimal={false}
              allowNegative={false}
              error={daysValid ? undefined : `Choose ${INVITATION_DAYS.min} to ${INVITATION_DAYS.max} days.`}
              w={{ base: '100%', xs: 200 }}
            />
          </Group>
          {invite.isError && (
            <Alert color="red" variant="light" role="alert">
              {failureText(invite.error, 'Could not create the invitation. Please try again.')}
            </Alert>
          )}
          <Group>
            <Button type="submit" loading={invite.isPending} disabled={!daysValid}>
              Create invitation
            </Button>
          </Group>
          {invite.data && (
            <Alert
              color="green"
              variant="light"
              title={`Invitation created (role: ${ROLE_LABELS[invite.data.role]})`}
            >
              <OneTimeCode
                code={invite.data.code}
                expiresAt={invite.data.expiresAt}
                link={`${window.location.origin}${signupLink(invite.data.code)}`}
                note="Send the link (or the code) to the person you invite: it signs them up once."
              />
            </Alert>
          )}
        </Stack>
      </form>
    </Paper>
  );
}

function PendingInvitations() {
  const invitations = useQuery(invitationsQueryOptions);
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: (id: number) => revokeInvitation(id),
    onSettled: () => refreshOperators(queryClient),
  });

  return (
    <Stack gap="xs">
      <Text fw={600}>Pending invitations</Text>
      {revoke.isError && (
        <Alert color="red" variant="light" role="alert">
          {failureText(revoke.error, 'Could not revoke the invitation. Please try again.')}
        </Alert>
      )}
      {invitations.isPending && <LoadingState />}
      {invitations.isError && (
        <ErrorState message={failureText(invitations.error, 'Failed to fetch the invitations')} />
      )}
      {invitations.data && invitations.data.invitations.length === 0 && (
        <Text c="dimmed" size="sm">
          No pending invitations.
        </Text>
      )}
      {invitations.data && invitations.data.invitations.length > 0 && (
        <DataTable<PendingInvitation>
          label="Pending invitations"
          compact
          rows={invitations.data.invitations}
          columns={[
            { header: 'Invitation', cell: (row) => `#${row.id}`, nowrap: true },
            { header: 'Role', cell: (row) => ROLE_LABELS[row.role] },
            { header: 'Created', cell: (row) => dateTimeText(row.created_at), nowrap: true },
            { header: 'Created by', cell: (row) => cellText(row.created_by ?? 'command line') },
            { header: 'Expires', cell: (row) => expiryText(row.expires_at), nowrap: true },
            {
              header: 'Revoke',
              cell: (row) => (
                <Button
                  size="compact-sm"
                  variant="light"
                  color="red"
                  aria-label={`Revoke invitation #${row.id}`}
                  loading={revoke.isPending && revoke.variables === row.id}
                  onClick={() => revoke.mutate(row.id)}
                >
                  Revoke
                </Button>
              ),
            },
          ]}
        />
      )}
    </Stack>
  );
}
