import '@mantine/spotlight/styles.css';
import { Group, Loader, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Spotlight, spotlight } from '@mantine/spotlight';
import { type SearchResult, searchResultSchema } from '@obd/contract';
import { SEARCH_MAX_LENGTH, SEARCH_PATH } from '@obd/contract/constants';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { useNavigate } from '../../app/navigation.tsx';
import { SIDEBAR_SCREENS } from '../../app/screens.tsx';
import { apiFetchParsed } from '../../lib/api.ts';
import { detailHref } from '../../list/columns.tsx';
import { hasRole } from '../auth/roles.tsx';
import { meQueryOptions } from '../auth/session.ts';
import { OPERATIONS_PATHS } from '../operations/declarations.tsx';
import { type ListName, listAccepts, listLink } from '../overview/links.ts';

/**
 * The search palette (issue 13): Ctrl+K / ⌘K or the header's field (HeaderSearch.tsx). Screens are matched here by
 * name; fault codes, scans, app users and makes come from GET /api/search, asked once the typing
 * pauses, the superseded request cancelled (TanStack Query aborts the signal of a query nobody
 * watches any more).
 */

/** How long the typing must pause before the server is asked. */
export const SEARCH_DEBOUNCE_MS = 250;
const HITS_PER_GROUP = 5;

export function searchQueryOptions(q: string) {
  return queryOptions({
    queryKey: ['search', q] as const,
    queryFn: ({ signal }) =>
      apiFetchParsed(searchResultSchema, SEARCH_PATH, { query: { q, limit: HITS_PER_GROUP }, signal }),
    staleTime: 10_000,
  });
}

/** One entry of the palette: what it shows and where it goes. */
interface Entry {
  id: string;
  label: string;
  description?: string;
  href: string;
}

interface EntryGroup {
  label: string;
  entries: Entry[];
}

const scanLabel = (s: SearchResult['scans']['hits'][number]) =>
  [s.make, s.model, s.vin ?? s.license_plate].filter(Boolean).join(' · ');

/** The groups of the server's answer as palette entries, each with its "see all" when the list can show them. */
export function resultGroups(result: SearchResult): EntryGroup[] {
  const seeAll = (list: ListName, group: { seeAll: Record<string, string> | null }, what: string): Entry[] =>
    group.seeAll && listAccepts(list, group.seeAll)
      ? [
          {
            id: `all-${list}`,
            label: `See all ${what} for “${result.q}”`,
            href: listLink(list, group.seeAll),
          },
        ]
      : [];
  const groups: EntryGroup[] = [
    {
      label: 'Fault codes',
      entries: [
        ...result.faultCodes.hits.map((h) => ({
          id: `dtc-${h.id}`,
          label: `${h.dtc}${h.make ? ` (${h.make})` : ''}`,
          description: h.title ?? undefined,
          href: listLink('faultCodes', { dtc: h.dtc, make: h.make }),
        })),
        ...(result.faultCodes.hits.length > 0 ? seeAll('faultCodes', result.faultCodes, 'fault codes') : []),
      ],
    },
    {
      label: 'Scans',
      entries: [
        ...result.scans.hits.map((h) => ({
          id: `scan-${h.id}`,
          label: scanLabel(h) || `Scan ${h.id}`,
          description: `${h.email} · ${h.scan_start_time.slice(0, 16).replace('T', ' ')}${h.license_plate ? ` · ${h.license_plate}` : ''}`,
          href: detailHref(OPERATIONS_PATHS.scanDetails, h.id),
        })),
        ...(result.scans.hits.length > 0 ? seeAll('scans', result.scans, 'scans') : []),
      ],
    },
    {
      label: 'App users',
      entries: [
        ...result.users.hits.map((h) => ({
          id: `user-${h.id}`,
          label: h.email,
          description: [h.name, h.plan, h.status].filter(Boolean).join(' · '),
          href: listLink('users', { email: h.email }),
        })),
        ...(result.users.hits.length > 0 ? seeAll('users', result.users, 'app users') : []),
      ],
    },
    {
      label: 'Makes',
      entries: result.makes.hits.map((h) => ({
        id: `make-${h.id}`,
        label: h.name,
        description: `${h.segment} · scans of this make`,
        href: listLink('scans', { make: h.name }),
      })),
    },
  ];
  return groups.filter((group) => group.entries.length > 0);
}

/** The screens whose name contains what was typed (for the operator's role). */
function screenEntries(q: string, role: Parameters<typeof hasRole>[0]): Entry[] {
  const needle = q.trim().toLowerCase();
  return SIDEBAR_SCREENS.filter(
    (s) => (!s.role || hasRole(role, s.role)) && (!needle || s.label.toLowerCase().includes(needle)),
  )
    .slice(0, needle ? 8 : 6)
    .map((s) => ({ id: `screen-${s.path}`, label: s.label, description: s.path, href: s.path }));
}

/**
 * The palette itself, loaded and mounted the first time it is opened (HeaderSearch.tsx). `opened`
 * counts the openings asked for by the header's button (and the first Ctrl+K): each new count opens it.
 */
export function SearchPalette({ opened }: { opened: number }) {
  useEffect(() => {
    if (opened > 0) spotlight.open();
  }, [opened]);
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query.trim().slice(0, SEARCH_MAX_LENGTH), SEARCH_DEBOUNCE_MS);
  const role = useQuery(meQueryOptions).data?.role;
  const search = useQuery({
    ...searchQueryOptions(debounced),
    enabled: debounced.length > 0,
    placeholderData: keepPreviousData,
  });
  const screens = screenEntries(query, role);
  const typed = query.trim().length > 0;
  const waiting = typed && (debounced !== query.trim() || search.isFetching);
  const result = typed && search.data ? search.data : undefined;
  const groups: EntryGroup[] = [
    ...(screens.length > 0 ? [{ label: 'Screens', entries: screens }] : []),
    ...(result ? resultGroups(result) : []),
  ];

  let status: ReactNode = null;
  if (typed && search.isError && !waiting) {
    status = (
      <Text c="red" size="sm" role="alert" px="md" py="xs">
        {`Search failed: ${search.error.message}`}
      </Text>
    );
  } else if (waiting) {
    status = (
      <Group gap="xs" px="md" py="xs" role="status">
        <Loader size="xs" />
        <Text size="sm" c="dimmed">
          Searching…
        </Text>
      </Group>
    );
  }

  return (
    <Spotlight.Root query={query} onQueryChange={setQuery} shortcut={['mod + K']} scrollable maxHeight={480}>
      <Spotlight.Search
        placeholder="A screen, a fault code (P0300), a VIN, a plate, an e-mail or a make"
        aria-label="Search"
        maxLength={SEARCH_MAX_LENGTH}
      />
      <Spotlight.ActionsList>
        {status}
        {groups.map((group) => (
          <Spotlight.ActionsGroup key={group.label} label={group.label}>
            {group.entries.map((entry) => (
              <Spotlight.Action
                key={entry.id}
                label={entry.label}
                description={entry.description}
                onClick={() => navigate(entry.href)}
              />
            ))}
          </Spotlight.ActionsGroup>
        ))}
        {groups.length === 0 && !waiting && !(typed && search.isError) && (
          <Spotlight.Empty>
            {typed
              ? `Nothing found for “${query.trim()}”. Try a fault code (P0300), a 17-character VIN, a plate, an e-mail or a make.`
              : 'Type a screen name, a fault code, a VIN, a plate, an e-mail or a make.'}
          </Spotlight.Empty>
        )}
      </Spotlight.ActionsList>
    </Spotlight.Root>
  );
}
