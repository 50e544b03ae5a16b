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

/** How old a known role may be when a screen that depends on it opens. */
const ROLE_FRESH_MS = 5_000;

/**
 * The signed-in operator's role, asked of the server again when a screen that depends on it opens
 * (unless known from the last few seconds): an admin may have changed it since this tab signed in.
 * The header and sidebar follow, as they read the same query. `undefined` until known.
 */
export function useFreshRole(): { role: Role | undefined; isPending: boolean } {
  const me = useQuery({ ...meQueryOptions, staleTime: ROLE_FRESH_MS });
  return { role: me.data?.role, isPending: me.isPending };
}
