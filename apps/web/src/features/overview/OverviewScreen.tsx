import '@mantine/charts/styles.css';
import { Alert, Button, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { Overview } from '@obd/contract';
import { addDays } from '@obd/contract/constants';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearchParams } from '../../app/navigation.tsx';
import { ErrorState, LoadingState } from '../../list/ListStates.tsx';
import { overviewQueryOptions } from './api.ts';
import { CoverageHeatMap } from './CoverageHeatMap.tsx';
import { FigureCards } from './FigureCards.tsx';
import { type OverviewLinks, overviewLinks } from './links.ts';
import { PeriodPicker } from './PeriodPicker.tsx';
import { type Period, parsePeriod, periodText, serialisePeriod, utcToday } from './period.ts';
import { ScansByAppVersion, ScansByMake, ScansPerDay, TopFaultCodes } from './ScanCharts.tsx';
import { ImportsPerDay, UsersBy } from './UserAndImportCharts.tsx';

export { changeText } from './FigureCards.tsx';
export { overviewLinks } from './links.ts';

/** Where the Overview lives (issue 13); screens.tsx names it as text. */
export const OVERVIEW_PATH_WEB = '/Overview';

/** The Overview (issue 13): the figures of a period against the previous one, and charts whose marks open lists. */
export function OverviewScreen() {
  const [params, setParams] = useSearchParams();
  const period = parsePeriod(params, utcToday());
  const overview = useQuery({
    ...overviewQueryOptions(period.from, period.to),
    placeholderData: keepPreviousData,
  });
  const choose = (next: Pick<Period, 'preset' | 'from' | 'to'>) => setParams(serialisePeriod(next));

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2}>Overview</Title>
          <Text c="dimmed" size="sm">
            {periodText(period.from, period.to)}
            {overview.data &&
              ` · compared with ${periodText(overview.data.previousPeriod.from, overview.data.previousPeriod.to)}`}
          </Text>
        </div>
        <Group gap="xs" align="flex-end">
          {overview.isFetching && overview.data && <Loader size="xs" aria-label="Updating" />}
          <PeriodPicker key={`${period.from}/${period.to}`} period={period} onChange={choose} />
        </Group>
      </Group>
      {overview.isPending ? (
        <LoadingState />
      ) : overview.isError && !overview.data ? (
        <ErrorState message={overview.error.message || 'Failed to load the overview'} />
      ) : (
        <OverviewBody data={overview.data} links={overviewLinks(period)} onChoose={choose} />
      )}
    </Stack>
  );
}

function OverviewBody({
  data,
  links,
  onChoose,
}: {
  data: Overview;
  links: OverviewLinks;
  onChoose: (p: Period) => void;
}) {
  const last = data.scanDays.last;
  return (
    <Stack gap="md">
      {data.figures.scans.value === 0 && last && (
        <Alert variant="light" color="blue" title="No scans in this period">
          <Group gap="sm">
            <Text size="sm">The latest scan was on {periodText(last, last)}.</Text>
            <Button
              size="xs"
              variant="light"
              onClick={() => onChoose({ preset: 'custom', from: addDays(last, -29), to: last })}
            >
              Show the 30 days up to it
            </Button>
          </Group>
        </Alert>
      )}
      <FigureCards data={data} links={links} />
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <ScansPerDay data={data} links={links} />
        <TopFaultCodes data={data} links={links} />
        <ScansByMake data={data} links={links} />
        <ScansByAppVersion data={data} links={links} />
        <UsersBy data={data} links={links} by="plan" />
        <UsersBy data={data} links={links} by="status" />
        <ImportsPerDay data={data} links={links} />
      </SimpleGrid>
      <CoverageHeatMap data={data} links={links} />
    </Stack>
  );
}
