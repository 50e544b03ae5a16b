import { Anchor, Paper, Progress, Stack, Text } from '@mantine/core';
import type { ImportKind, ImportRecord } from '@obd/contract';
import { IMPORTS_PATH } from '@obd/contract/constants';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from '../app/navigation.tsx';
import { apiFetchParsedLater } from '../lib/api.ts';
import { pace } from './format.ts';
import { importSchemas } from './importProgress.ts';
import { progressText } from './UploadProgress.tsx';

/** How often the running imports of a page are read while there are some. */
const RUNNING_POLL_MS = 1000;

/**
 * Issue 15 item 6: an import of this page's kind that was already running when the page opened
 * (the operator left the page while it ran, and came back) is picked up: its progress, live,
 * until it ends, then its outcome with a link to its record in the Import History.
 */
export function RunningImports({ kind }: { kind: ImportKind }) {
  const [openedAt] = useState(() => Date.now());
  const [seen, setSeen] = useState<ImportRecord[]>([]);
  const running = useQuery({
    queryKey: ['imports', 'running', kind],
    queryFn: async ({ signal }) => {
      const list = await apiFetchParsedLater(
        async () => (await importSchemas()).importHistorySchema,
        IMPORTS_PATH,
        {
          query: { status: 'running', kind, limit: 5 },
          signal,
        },
      );
      // Only those started before this page opened: an upload from this page shows its own progress.
      const earlier = list.data.filter((r) => Date.parse(r.startedAt) < openedAt);
      setSeen((before) => [...before.filter((b) => !earlier.some((r) => r.id === b.id)), ...earlier]);
      return earlier;
    },
    refetchInterval: (query) => ((query.state.data?.length ?? 0) > 0 ? RUNNING_POLL_MS : false),
    retry: false,
  });
  const now = running.data ?? [];
  if (seen.length === 0) return null;
  return (
    <Stack gap="xs" data-testid="running-imports">
      {seen.map((record) => {
        const live = now.find((r) => r.id === record.id);
        const link = (
          <Anchor component={Link} to={`/ImportHistory/details?id=${record.id}`}>
            Import #{record.id}
          </Anchor>
        );
        if (!live)
          return (
            <Paper key={record.id} withBorder radius="md" p="md">
              <Text size="sm">
                {link} ({record.fileName}) has finished: see its outcome in the Import History.
              </Text>
            </Paper>
          );
        const { percent, label, detail } = progressText({ stage: 'processing', record: live });
        return (
          <Paper key={record.id} withBorder radius="md" p="md">
            <Stack gap="xs">
              <Text fw={600}>
                {link} ({live.fileName}) is still running: {label}
              </Text>
              <Progress value={percent} striped animated size="lg" color="teal" aria-label={label} />
              <Text size="sm" c="dimmed">
                {detail} · {pace(live)}
              </Text>
            </Stack>
          </Paper>
        );
      })}
    </Stack>
  );
}
