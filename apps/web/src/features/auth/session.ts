import type { SessionResponse } from '@obd/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '../../app/navigation.tsx';
import { apiFetch, apiFetchParsedLater } from '../../lib/api.ts';
import { clearToken, setToken } from '../../lib/session.ts';
import { forgetListQueries } from '../../list/rememberedQueries.ts';

/** The signed-in operator (`GET /api/me`), shown in the header. */
export const meQueryOptions = queryOptions({
  queryKey: ['me'],
  queryFn: ({ signal }) =>
    apiFetchParsedLater(async () => (await import('./schemas.ts')).operatorSchema, '/api/me', { signal }),
  staleTime: Number.POSITIVE_INFINITY,
});

/** After login or sign-up: keep the token, know who signed in without asking again, open `destination`. */
export function useStartSession(): (session: SessionResponse, destination: string) => void {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return (session, destination) => {
    setToken(session.token);
    queryClient.setQueryData(meQueryOptions.queryKey, session.operator);
    navigate(destination, { replace: true });
  };
}

/**
 * Logout: revoke the token on the server, then forget everything of this session in the browser
 * — even when the server could not be reached, the operator asked to leave.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => apiFetch('/api/logout', { method: 'POST', redirectOnUnauthorized: false }),
    onSettled: () => {
      clearToken();
      forgetListQueries();
      navigate('/login', { replace: true });
      // After leaving the guarded screens, so none of them refetches with the cleared token.
      queryClient.clear();
    },
  });
}
