import { mySessionsSchema, type PasswordChangeBody, sessionsEndedSchema } from '@obd/contract';
import { MY_PASSWORD_PATH, MY_SESSIONS_PATH, mySessionPath } from '@obd/contract/constants';
import { queryOptions } from '@tanstack/react-query';
import { apiFetch, apiFetchParsed } from '../../lib/api.ts';

/** The signed-in operator's open sessions, newest first (the current one marked by the server). */
export const mySessionsQueryOptions = queryOptions({
  queryKey: ['my-sessions'],
  queryFn: ({ signal }) => apiFetchParsed(mySessionsSchema, MY_SESSIONS_PATH, { signal }),
  staleTime: 0,
});

export const endMySession = (id: number) =>
  apiFetchParsed(sessionsEndedSchema, mySessionPath(id), { method: 'DELETE' });

/** 204: every other session of this operator has ended. */
export const changeMyPassword = (body: PasswordChangeBody) =>
  apiFetch(MY_PASSWORD_PATH, { method: 'POST', body });
