/** The Overview's chart cards about scans (issue 13): each bar opens the scans list, filtered. */
import { BarChart } from '@mantine/charts';
import { Anchor } from '@mantine/core';
import type { Overview } from '@obd/contract';
import { Link, useNavigate } from 'react-router';
import { ChartCard, FiguresTable } from './ChartCard.tsx';
import { count, rowOf, shortDay } from './format.ts';
import type { OverviewLinks } from './links.ts';

const SEGMENT_SERIES = [
  { name: 'car', label: 'Car', color: 'blue.6' },
  { name: 'bike', label: 'Bike', color: 'teal.6' },
  { name: 'three_wheeler', label: 'Three-wheeler', color: 'yellow.6' },
  { name: 'hcv', label: 'HCV', color: 'grape.6' },
  { name: 'other', label: 'Other', color: 'gray.6' },
] as const;

/** Scans per day, stacked by segment; a bar opens that day's scans. */
export function ScansPerDay({ data, links }: { data: Overview; links: OverviewLinks }) {
  const navigate = useNavigate();
  const rows = data.scansPerDay;
  const total = (r: (typeof rows)[number]) => r.car + r.bike + r.three_wheeler + r.hcv + r.other;
  return (
    <ChartCard
      title="Scans per day"
      description="By segment; a segment of a bar opens that day's scans of that segment"
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
          barProps={(series) => ({
            style: { cursor: 'pointer' },
            onClick: (bar: { payload?: unknown }) =>
              navigate(links.scansOnDayOfSegment(rowOf<{ day: string }>(bar).day, series.name)),
          })}
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
              ...SEGMENT_SERIES.map((s) =>
                r[s.name] > 0 ? (
                  <Anchor key={s.name} component={Link} to={links.scansOnDayOfSegment(r.day, s.name)}>
                    {count(r[s.name])}
                  </Anchor>
                ) : (
                  count(0)
                ),
              ),
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

/** The 10 fault codes reported by most scans; a bar opens the scans reporting it. */
export function TopFaultCodes({ data, links }: { data: Overview; links: OverviewLinks }) {
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

/** The 15 makes with most scans; a bar opens that make's scans of the period. */
export function ScansByMake({ data, links }: { data: Overview; links: OverviewLinks }) {
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

/** Scans by app version; a bar opens that version's scans of the period. */
export function ScansByAppVersion({ data, links }: { data: Overview; links: OverviewLinks }) {
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
