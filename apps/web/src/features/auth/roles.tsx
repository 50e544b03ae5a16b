import { Badge } from '@mantine/core';
import type { Role } from '@obd/contract';
import { useQuery } from '@tanstack/react-query';
import { meQueryOptions } from './session.ts';

const RANK: Record<Role, number> = { viewer: 0, editor: 1, admin: 2 };

/** Whether `role` may do what `needed` may (an admin may do what an editor may, and so on). */
export function hasRole(role: Role | undefined, needed: Role): boolean {
  return role !== undefined && RANK[role] >= RANK[needed];
}

/** 'Viewer', 'Editor', 'Admin'. */
export const ROLE_LABELS: Record<Role, string> = { viewer: 'Viewer', editor: 'Editor', admin: 'Admin' };

/**
 * The signed-in operator's role, asked of the server again each time a screen that depends on it
 * opens: an admin may have changed it since this tab signed in. Until the answer comes the role
 * already known is used; the header and sidebar follow, as they read the same query. `undefined`
 * until known.
 */
export function useFreshRole(): { role: Role | undefined; isPending: boolean } {
  const me = useQuery({ ...meQueryOptions, staleTime: 0, refetchOnMount: 'always' });
  return { role: me.data?.role, isPending: me.isPending };
}

const ROLE_COLORS: Record<Role, string> = { viewer: 'gray', editor: 'blue', admin: 'grape' };

/** The role as a small coloured badge (the header, My account). */
export function RoleBadge({ role, visibleFrom }: { role: Role; visibleFrom?: 'xs' }) {
  return (
    <Badge
      variant="light"
      color={ROLE_COLORS[role]}
      tt="none"
      visibleFrom={visibleFrom}
      aria-label={`Role: ${ROLE_LABELS[role]}`}
    >
      {ROLE_LABELS[role]}
    </Badge>
  );
}
