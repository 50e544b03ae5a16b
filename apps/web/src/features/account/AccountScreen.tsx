import { Alert, Badge, Button, Group, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import type { MySession } from '@obd/contract';
import { MIN_PASSWORD_LENGTH } from '@obd/contract/constants';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { DataTable } from '../../list/DataTable.tsx';
import { cellText, dateTimeText } from '../../list/format.ts';
import { ErrorState, LoadingState } from '../../list/ListStates.tsx';
import { failureText } from '../auth/AuthLayout.tsx';
import { RoleBadge } from '../auth/roles.tsx';
import { meQueryOptions, useLogout } from '../auth/session.ts';
import { changeMyPassword, endMySession, mySessionsQueryOptions } from './api.ts';
import { browserText } from './browser.ts';

/** Where every operator manages their own account (the header's My account). */
export { ACCOUNT_PATH } from './paths.ts';

/** My account: who I am, a new password, and where I am signed in. */
export function AccountScreen() {
  const me = useQuery(meQueryOptions);
  return (
    <Stack gap="lg" maw={1100}>
      <Title order={2}>My account</Title>
      {me.data && (
        <Group gap="sm">
          <Text>{`Signed in as ${me.data.email}`}</Text>
          <RoleBadge role={me.data.role} />
        </Group>
      )}
      <ChangePassword />
      <MySessions />
    </Stack>
  );
}

function ChangePassword() {
  const queryClient = useQueryClient();
  const [currentPassword, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const change = useMutation({
    mutationFn: () => changeMyPassword({ currentPassword, password }),
    onSuccess: () => {
      setCurrent('');
      setPassword('');
      void queryClient.invalidateQueries({ queryKey: mySessionsQueryOptions.queryKey });
    },
  });
  const tooShort = password.length > 0 && password.length < MIN_PASSWORD_LENGTH;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!currentPassword || password.length < MIN_PASSWORD_LENGTH) return;
    change.mutate();
  };

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label="Change password">
      <form onSubmit={submit} aria-label="Change password">
        <Stack gap="md" maw={420}>
          <Title order={3}>Change password</Title>
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            value={currentPassword}
            onChange={(event) => setCurrent(event.currentTarget.value)}
          />
          <PasswordInput
            label="New password"
            autoComplete="new-password"
            description={`At least ${MIN_PASSWORD_LENGTH} characters. Every other session of yours ends.`}
            error={tooShort ? `Choose a password of at least ${MIN_PASSWORD_LENGTH} characters.` : undefined}
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
          />
          {change.isError && (
            <Alert color="red" variant="light" role="alert">
              {failureText(change.error, 'Could not change your password. Please try again.')}
            </Alert>
          )}
          {change.isSuccess && (
            <Alert color="green" variant="light" role="status">
              Your password is changed. Every other session of yours has ended; this one goes on.
            </Alert>
          )}
          <Group>
            <Button
              type="submit"
              loading={change.isPending}
              disabled={!currentPassword || password.length < MIN_PASSWORD_LENGTH}
            >
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function MySessions() {
  const sessions = useQuery(mySessionsQueryOptions);
  const queryClient = useQueryClient();
  const logout = useLogout();
  const end = useMutation({
    mutationFn: (id: number) => endMySession(id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: mySessionsQueryOptions.queryKey }),
  });

  return (
    <Stack gap="xs" component="section" aria-label="My sessions">
      <Title order={3}>My sessions</Title>
      <Text size="sm" c="dimmed">
        Where you are signed in. End a session you do not recognise, then change your password.
      </Text>
      {end.isError && (
        <Alert color="red" variant="light" role="alert">
          {failureText(end.error, 'Could not end the session. Please try again.')}
        </Alert>
      )}
      {sessions.isPending && <LoadingState />}
      {sessions.isError && (
        <ErrorState message={failureText(sessions.error, 'Failed to fetch your sessions')} />
      )}
      {sessions.data && (
        <DataTable<MySession>
          label="My sessions"
          rows={sessions.data.sessions}
          columns={[
            { header: 'Started', cell: (row) => dateTimeText(row.created_at), nowrap: true },
            { header: 'Last seen', cell: (row) => dateTimeText(row.last_seen_at), nowrap: true },
            { header: 'Address', cell: (row) => cellText(row.address), nowrap: true },
            {
              header: 'Browser',
              cell: (row) => (
                <Text size="sm" title={row.user_agent ?? undefined}>
                  {browserText(row.user_agent)}
                </Text>
              ),
            },
            {
              header: 'Session',
              nowrap: true,
              cell: (row) =>
                row.current ? (
                  <Group gap="xs" justify="center" wrap="nowrap">
                    <Badge color="green" variant="light" tt="none">
                      This session
                    </Badge>
                    <Button size="compact-sm" variant="default" onClick={() => logout.mutate()}>
                      Sign out
                    </Button>
                  </Group>
                ) : (
                  <Button
                    size="compact-sm"
                    variant="light"
                    color="red"
                    aria-label={`End the session started ${dateTimeText(row.created_at)}`}
                    loading={end.isPending && end.variables === row.id}
                    onClick={() => end.mutate(row.id)}
                  >
                    End
                  </Button>
                ),
            },
          ]}
        />
      )}
    </Stack>
  );
}
