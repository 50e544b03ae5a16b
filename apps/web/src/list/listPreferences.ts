import type { ColumnLayout, Density, ListPreferences } from '@obd/contract';
import { listPreferencesPath } from '@obd/contract/constants';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetchParsedLater } from '../lib/api.ts';

const schema = async () => (await import('./schemas.ts')).listPreferencesSchema;

/**
 * The signed-in operator's arrangement of one list (columns, density), kept on the server so it
 * follows them to another browser. Read once per list; a change shows at once and is written behind.
 */
export function useListPreferences(list: string) {
  const client = useQueryClient();
  const queryKey = ['list-preferences', list] as const;
  const { data } = useQuery({
    queryKey,
    queryFn: ({ signal }) => apiFetchParsedLater(schema, listPreferencesPath(list), { signal }),
    staleTime: 5 * 60_000,
  });
  const save = useMutation({
    mutationFn: (change: { columns?: ColumnLayout | null; density?: Density }) =>
      apiFetchParsedLater(schema, listPreferencesPath(list), { method: 'PUT', body: change }),
    onMutate: (change) => {
      client.setQueryData<ListPreferences>(queryKey, (current) => ({
        list,
        columns: current?.columns ?? null,
        density: current?.density ?? 'comfortable',
        updated_at: current?.updated_at ?? null,
        ...change,
      }));
    },
    onSuccess: (saved) => client.setQueryData(queryKey, saved),
    onError: (error) => {
      console.error(`${list}: preferences not saved`, error);
      void client.invalidateQueries({ queryKey });
    },
  });
  return {
    loaded: data !== undefined,
    layout: data?.columns ?? null,
    density: data?.density ?? 'comfortable',
    setLayout: (columns: ColumnLayout | null) => save.mutate({ columns }),
    setDensity: (density: Density) => save.mutate({ density }),
  };
}

export type ListPreferencesController = ReturnType<typeof useListPreferences>;
