import { Alert, Stack, Title } from '@mantine/core';
import type { Role } from '@obd/contract';
import type { ReactNode } from 'react';
import { hasRole, useFreshRole } from '../features/auth/roles.tsx';
import { ErrorState, LoadingState } from '../list/ListStates.tsx';

/** Says why an operator's role cannot use a screen, e.g. 'Uploading needs the editor role'. */
export function RoleNeeded({ title, reason }: { title: string; reason: string }) {
  return (
    <Stack gap="md" maw={960}>
      <Title order={2}>{title}</Title>
      <Alert color="yellow" variant="light" role="alert" title={reason}>
        Ask an admin to change your role if you need it.
      </Alert>
    </Stack>
  );
}

/**
 * A screen for `role` and above: anyone else sees why instead of a screen whose every request
 * fails with 403 (the server decides regardless). The role is asked again when the screen opens.
 */
export function RoleGate({
  needs,
  title,
  reason,
  children,
}: {
  needs: Role;
  title: string;
  /** The sentence shown to a lesser role, e.g. 'The audit log needs the admin role'. */
  reason: string;
  children: ReactNode;
}) {
  const { role: mine, isPending } = useFreshRole();
  if (mine === undefined) {
    return isPending ? (
      <LoadingState />
    ) : (
      <ErrorState message="Could not find out your role. Reload the page." />
    );
  }
  if (!hasRole(mine, needs)) return <RoleNeeded title={title} reason={reason} />;
  return children;
}
