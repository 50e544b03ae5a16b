import '@mantine/charts/styles.css';
import { BarChart, MatrixChart } from '@mantine/charts';
import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Loader,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { addDays, type Overview, type OverviewFigure } from '@obd/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ErrorState, LoadingState } from '../../list/ListStates.tsx';
import { overviewQueryOptions } from './api.ts';
import { ChartCard, FiguresTable } from './ChartCard.tsx';
import { listLink, scanPeriod } from './links.ts';
import {
  isValidRange,
  PERIOD_LABELS,
  PERIOD_PRESETS,
  type Period,
  type PeriodPreset,
  parsePeriod,
  periodText,
  presetDays,
  serialisePeriod,
  utcToday,
} from './period.ts';

/** Where the Overview lives (issue 13); screens.tsx names it as text. */
export const OVERVIEW_PATH_WEB = '/Overview';

const NUMBER = new Intl.NumberFormat('en-GB');
const count = (n: number) => NUMBER.format(n);

const SEGMENT_SERIES = [
  { name: 'car', label: 'Car', color: 'blue.6' },
  { name: 'bike', label: 'Bike', color: 'teal.6' },
  { name: 'three_wheeler', label: 'Three-wheeler', color: 'yellow.6' },
  { name: 'hcv', label: 'HCV', color: 'grape.6' },
  { name: 'other', label: 'Other', color: 'gray.6' },
] as const;

const IMPORT_SERIES = [
  { name: 'succeeded', label: 'Succeeded', color: 'teal.6' },
  { name: 'failed', label: 'Failed', color: 'red.6' },
  { name: 'running', label: 'Running', color: 'yellow.6' },
] as const;

/** The doors of the Overview: each mark's list, filtered (one function per kind of mark, all through `listLink`). */
export function overviewLinks(period: { from: string; to: string }) {
  const inPeriod = scanPeriod(period.from, period.to);
  return {
    scans: () => listLink('scans', inPeriod),
    scansOnDay: (day: string) => listLink('scans', scanPeriod(day, day)),
    scansOfMake: (make: string) => listLink('scans', { ...inPeriod, make }),
    scansOfVersion: (version: string) => listLink('scans', { ...inPeriod, app_version: version }),
    scansReporting: (dtc: string) => listLink('scans', { ...inPeriod, dtc }),
    faultCode: (dtc: string) => listLink('faultCodes', { dtc }),
    specialFunctions: () => listLink('specialFunctions', inPeriod),
    usersOfPlan: (plan: string) => listLink('users', { plan }),
    usersOfStatus: (status: string) => listLink('users', { status }),
    coverageOfMake: (make: string) => listLink('coverage', { make }),
    imports: (status?: string) => listLink('imports', { status }),
  };
}
type Links = ReturnType<typeof overviewLinks>;

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

function PeriodPicker({ period, onChange }: { period: Period; onChange: (next: Period) => void }) {
  const [custom, setCustom] = useState(period.preset === 'custom');
  const [from, setFrom] = useState(period.from);
  const [to, setTo] = useState(period.to);
  const valid = isValidRange(from, to);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (valid) onChange({ preset: 'custom', from, to });
  };
  return (
    <Stack gap={6} align="flex-end">
      <SegmentedControl
        aria-label="Period"
        value={custom ? 'custom' : period.preset}
        onChange={(value) => {
          const preset = PERIOD_PRESETS.find((p) => p === value) as PeriodPreset;
          if (preset === 'custom') return setCustom(true);
          setCustom(false);
          onChange({ preset, ...presetDays(preset, utcToday()) });
        }}
        data={PERIOD_PRESETS.map((value) => ({ value, label: PERIOD_LABELS[value] }))}
      />
      {custom && (
        <Group component="form" onSubmit={apply} gap="xs" align="flex-end">
          <TextInput
            type="date"
            size="xs"
            label="From"
            value={from}
            onChange={(e) => setFrom(e.currentTarget.value)}
          />
          <TextInput
            type="date"
            size="xs"
            label="To"
            value={to}
            onChange={(e) => setTo(e.currentTarget.value)}
            error={from && to && !valid ? 'From must be on or before To' : undefined}
          />
          <Button type="submit" size="xs" disabled={!valid}>
            Show
          </Button>
        </Group>
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
  links: Links;
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
      <Figures data={data} links={links} />
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <ScansPerDay data={data} links={links} />
        <TopFaultCodes data={data} links={links} />
        <ScansByMake data={data} links={links} />
        <ScansByAppVersion data={data} links={links} />
        <UsersBy data={data} links={links} by="plan" />
        <UsersBy data={data} links={links} by="status" />
        <ImportsPerDay data={data} links={links} />
      </SimpleGrid>
      <Coverage data={data} links={links} />
    </Stack>
  );
}

// ------------------------------------------------------------------ figures

/** '▲ 12% on the previous period', '▼ 3%', 'No change', 'New' (nothing before). */
export function changeText({ value, previous }: OverviewFigure): { text: string; color: string } {
  if (value === previous) return { text: 'No change on the previous period', color: 'dimmed' };
  if (previous === 0) return { text: `Up from 0 in the previous period`, color: 'teal' };
  const percent = Math.round(((value - previous) / previous) * 100);
  const up = value > previous;
  return {
    text: `${up ? '▲' : '▼'} ${Math.abs(percent)}% on the previous period (${count(previous)})`,
    color: up ? 'teal' : 'red',
  };
}

function Figures({ data, links }: { data: Overview; links: Links }) {
  const f = data.figures;
  const failed = f.failedImports;
  const cards: { label: string; figure: OverviewFigure; href?: string; note?: string }[] = [
    { label: 'Scans', figure: f.scans, href: links.scans() },
    { label: 'Special-function runs', figure: f.specialFunctionRuns, href: links.specialFunctions() },
    { label: 'Actuation runs', figure: f.actuationRuns },
    { label: 'App users who scanned', figure: f.scanningUsers },
    { label: 'New app users', figure: f.newUsers },
    {
      label: 'Imports',
      figure: f.imports,
      href: links.imports(),
      note: `${count(failed.value)} failed (${count(failed.previous)} before)`,
    },
  ];
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3, xl: 6 }} spacing="sm">
      {cards.map((card) => {
        const change = changeText(card.figure);
        return (
          <Card
            key={card.label}
            withBorder
            padding="sm"
            radius="md"
            component="section"
            aria-label={card.label}
          >
            <Text size="xs" c="dimmed" fw={600} tt="uppercase">
              {card.label}
            </Text>
            <Text fz={28} fw={700} lh={1.2}>
              {card.href ? (
                <Anchor component={Link} to={card.href} inherit underline="hover" c="inherit">
                  {count(card.figure.value)}
                </Anchor>
              ) : (
                count(card.figure.value)
              )}
            </Text>
            <Text size="xs" c={change.color}>
              {change.text}
            </Text>
            {card.note && (
              <Text size="xs" c={failed.value > 0 ? 'red' : 'dimmed'}>
                {card.note}
              </Text>
            )}
          </Card>
        );
      })}
    </SimpleGrid>
  );
}

// ------------------------------------------------------------------ charts

/** A bar's row from recharts' click (its `payload`). */
function rowOf<T>(bar: { payload?: unknown }): T {
  return bar.payload as T;
}

const shortDay = (day: string) => day.slice(5);

function ScansPerDay({ data, links }: { data: Overview; links: Links }) {
  const navigate = useNavigate();
  const rows = data.scansPerDay;
  const total = (r: (typeof rows)[number]) => r.car + r.bike + r.three_wheeler + r.hcv + r.other;
  return (
    <ChartCard
      title="Scans per day"
      description="By segment; a bar opens that day's scans"
      empty={data.figures.scans.value === 0 && 'No scans in this period.'}
      chart={
        <BarChart
          h={260}
          data={rows}
          dataKey="day"
          type="stacked"
          series={SEGMENT_SERIES.map((s) => ({ ...s }))}
          withLegend
          xAxisProps={{ tickFormatter: shortDay }}
          barProps={{
            style: { cursor: 'pointer' },
            onClick: (bar) => navigate(links.scansOnDay(rowOf<{ day: string }>(bar).day)),
          }}
        />
      }
      table={
        <FiguresTable
          caption="Scans per day by segment"
          head={['Day', ...SEGMENT_SERIES.map((s) => s.label), 'Total']}
          rows={rows.map((r) => ({
            key: r.day,
            cells: [
              r.day,
              ...SEGMENT_SERIES.map((s) => count(r[s.name])),
              <Anchor key="total" component={Link} to={links.scansOnDay(r.day)}>
                {count(total(r))}
              </Anchor>,
            ],
          }))}
        />
      }
    />
  );
}

function TopFaultCodes({ data, links }: { data: Overview; links: Links }) {
  const navigate = useNavigate();
  const rows = data.topFaultCodes;
  return (
    <ChartCard
      title="Top fault codes"
      description="The 10 codes reported by most scans; a bar opens the scans reporting it"
      empty={rows.length === 0 && 'No fault codes reported in this period.'}
      chart={
        <BarChart
          h={Math.max(160, rows.length * 30)}
          data={rows}
          dataKey="dtc"
          orientation="vertical"
          yAxisProps={{ width: 80 }}
          series={[{ name: 'scans', label: 'Scans', color: 'red.6' }]}
          tooltipProps={{
            labelFormatter: (dtc: unknown) => {
              const row = rows.find((r) => r.dtc === dtc);
              return row?.title ? `${dtc} — ${row.title}` : String(dtc);
            },
          }}
          barProps={{
            style: { cursor: 'pointer' },
            onClick: (bar) => navigate(links.scansReporting(rowOf<{ dtc: string }>(bar).dtc)),
          }}
        />
      }
      table={
        <FiguresTable
          caption="Fault codes reported by most scans"
          head={['Code', 'Title', 'Scans']}
          rows={rows.map((r) => ({
            key: r.dtc,
            cells: [
              <Anchor key="dtc" component={Link} to={links.faultCode(r.dtc)}>
                {r.dtc}
              </Anchor>,
              r.title ?? '-',
              <Anchor key="scans" component={Link} to={links.scansReporting(r.dtc)}>
                {count(r.scans)}
              </Anchor>,
            ],
          }))}
        />
      }
    />
  );
}

function ScansByMake({ data, links }: { data: Overview; links: Links }) {
  const navigate = useNavigate();
  const rows = data.scansByMake;
  return (
    <ChartCard
      title="Scans by make"
      description="The 15 makes with most scans; a bar opens that make's scans of the period"
      empty={rows.length === 0 && 'No scans in this period.'}
      chart={
        <BarChart
          h={Math.max(160, rows.length * 26)}
          data={rows}
          dataKey="make"
          orientation="vertical"
          yAxisProps={{ width: 110 }}
          series={[{ name: 'scans', label: 'Scans', color: 'blue.6' }]}
          barProps={{
            style: { cursor: 'pointer' },
            onClick: (bar) => navigate(links.scansOfMake(rowOf<{ make: string }>(bar).make)),
          }}
        />
      }
      table={
        <FiguresTable
          caption="Scans by make"
          head={['Make', 'Segment', 'Scans']}
          rows={rows.map((r) => ({
            key: r.make,
            cells: [
              r.make,
              r.segment ?? '-',
              <Anchor
                key="scans"
                component={Link}
                to={links.scansOfMake(r.make)}
                aria-label={`${r.make}: ${count(r.scans)} scans`}
              >
                {count(r.scans)}
              </Anchor>,
            ],
          }))}
        />
      }
    />
  );
}

const NOT_RECORDED = 'Not recorded';

function ScansByAppVersion({ data, links }: { data: Overview; links: Links }) {
  const navigate = useNavigate();
  const rows = data.scansByAppVersion.map((r) => ({ ...r, label: r.version ?? NOT_RECORDED }));
  return (
    <ChartCard
      title="Scans by app version"
      description="A bar opens that version's scans of the period"
      empty={rows.length === 0 && 'No scans in this period.'}
      chart={
        <BarChart
          h={220}
          data={rows}
          dataKey="label"
          series={[{ name: 'scans', label: 'Scans', color: 'indigo.6' }]}
          barProps={{
            style: { cursor: 'pointer' },
            onClick: (bar) => {
              const version = rowOf<{ version: string | null }>(bar).version;
              if (version) navigate(links.scansOfVersion(version));
            },
          }}
        />
      }
      table={
        <FiguresTable
          caption="Scans by app version"
          head={['App version', 'Scans']}
          rows={rows.map((r) => ({
            key: r.label,
            cells: [
              r.label,
              r.version ? (
                <Anchor key="scans" component={Link} to={links.scansOfVersion(r.version)}>
                  {count(r.scans)}
                </Anchor>
              ) : (
                count(r.scans)
              ),
            ],
          }))}
        />
      }
    />
  );
}

function UsersBy({ data, links, by }: { data: Overview; links: Links; by: 'plan' | 'status' }) {
  const navigate = useNavigate();
  const rows =
    by === 'plan'
      ? data.usersByPlan.map((r) => ({ key: r.plan, users: r.users }))
      : data.usersByStatus.map((r) => ({ key: r.status, users: r.users }));
  const href = (key: string) => (by === 'plan' ? links.usersOfPlan(key) : links.usersOfStatus(key));
  const title = by === 'plan' ? 'App users by plan' : 'App users by status';
  return (
    <ChartCard
      title={title}
      description={`All app users now; a bar opens the users of that ${by}`}
      empty={rows.length === 0 && 'No app users yet.'}
      chart={
        <BarChart
          h={Math.max(140, rows.length * 30)}
          data={rows}
          dataKey="key"
          orientation="vertical"
          yAxisProps={{ width: 100 }}
          series={[{ name: 'users', label: 'Users', color: by === 'plan' ? 'cyan.6' : 'orange.6' }]}
          barProps={{
            style: { cursor: 'pointer' },
            onClick: (bar) => navigate(href(rowOf<{ key: string }>(bar).key)),
          }}
        />
      }
      table={
        <FiguresTable
          caption={title}
          head={[by === 'plan' ? 'Plan' : 'Status', 'Users']}
          rows={rows.map((r) => ({
            key: r.key,
            cells: [
              r.key,
              <Anchor key="users" component={Link} to={href(r.key)}>
                {count(r.users)}
              </Anchor>,
            ],
          }))}
        />
      }
    />
  );
}

function ImportsPerDay({ data, links }: { data: Overview; links: Links }) {
  const navigate = useNavigate();
  const rows = data.importsPerDay;
  return (
    <ChartCard
      title="Imports per day"
      description="By outcome; a bar opens the import history at that outcome"
      empty={rows.length === 0 && 'No imports in this period.'}
      chart={
        <BarChart
          h={220}
          data={rows}
          dataKey="day"
          type="stacked"
          withLegend
          xAxisProps={{ tickFormatter: shortDay }}
          series={IMPORT_SERIES.map((s) => ({ ...s }))}
          barProps={(series) => ({
            style: { cursor: 'pointer' },
            onClick: () => navigate(links.imports(series.name)),
          })}
        />
      }
      table={
        <FiguresTable
          caption="Imports per day by outcome"
          head={['Day', ...IMPORT_SERIES.map((s) => s.label)]}
          rows={rows.map((r) => ({
            key: r.day,
            cells: [r.day, ...IMPORT_SERIES.map((s) => count(r[s.name]))],
          }))}
        />
      }
    />
  );
}

function Coverage({ data, links }: { data: Overview; links: Links }) {
  const navigate = useNavigate();
  const { functionTypes, makes } = data.coverage;
  const cells = makes.flatMap((m) =>
    functionTypes.map((type, i) => ({ x: m.make, y: type, value: m.counts[i] ?? 0 })),
  );
  return (
    <ChartCard
      title="Coverage: functions per make"
      description="Function type × make, the 25 makes with most functions; a cell opens that make's coverage"
      empty={makes.length === 0 && 'No coverage data.'}
      chart={
        <div style={{ overflowX: 'auto' }}>
          <MatrixChart
            data={cells}
            xLabels={makes.map((m) => m.make)}
            yLabels={functionTypes}
            withXLabels
            withYLabels
            withLegend
            cellSize={26}
            yLabelsWidth={150}
            xLabelsHeight={90}
            colors={['blue.2', 'blue.4', 'blue.6', 'blue.8']}
            withTooltip
            getTooltipLabel={(cell) => `${cell.x} · ${cell.y}: ${count(cell.value ?? 0)} functions`}
            getCellProps={(cell) => ({
              style: { cursor: 'pointer' },
              onClick: () => navigate(links.coverageOfMake(cell.x)),
            })}
          />
        </div>
      }
      table={
        <FiguresTable
          caption="Coverage functions per make and function type"
          head={['Make', 'Total', ...functionTypes]}
          rows={makes.map((m) => ({
            key: m.make,
            cells: [
              <Anchor key="make" component={Link} to={links.coverageOfMake(m.make)}>
                {m.make}
              </Anchor>,
              count(m.total),
              ...functionTypes.map((_, i) => count(m.counts[i] ?? 0)),
            ],
          }))}
        />
      }
    />
  );
}
