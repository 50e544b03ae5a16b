/** The Overview's chart cards about scans (issue 13): each bar opens the scans list, filtered. */
import { Anchor } from '@mantine/core';
import type { Overview } from '@obd/contract';
import { Link } from '../../app/navigation.tsx';
import { RankedBarsCard, StackedDaysCard } from './BarCards.tsx';
import { count } from './format.ts';
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
  return (
    <StackedDaysCard
      title="Scans per day"
      description="By segment; a segment of a bar opens that day's scans of that segment"
      empty={data.figures.scans.value === 0 && 'No scans in this period.'}
      rows={data.scansPerDay}
      series={SEGMENT_SERIES}
      height={260}
      href={links.scansOnDayOfSegment}
      totalHref={links.scansOnDay}
      caption="Scans per day by segment"
    />
  );
}

type FaultCodeRow = Overview['topFaultCodes'][number];

/** The 10 fault codes reported by most scans; a bar opens the scans reporting it. */
export function TopFaultCodes({ data, links }: { data: Overview; links: OverviewLinks }) {
  return (
    <RankedBarsCard<FaultCodeRow>
      title="Top fault codes"
      description="The 10 codes reported by most scans; a bar opens the scans reporting it"
      empty="No fault codes reported in this period."
      rows={data.topFaultCodes}
      label={(r) => r.dtc}
      value={(r) => r.scans}
      series={{ label: 'Scans', color: 'red.6' }}
      href={(r) => links.scansReporting(r.dtc)}
      layout={{ labelWidth: 80, rowHeight: 30, minHeight: 160 }}
      tooltipLabel={(r) => (r.title ? `${r.dtc} — ${r.title}` : r.dtc)}
      caption="Fault codes reported by most scans"
      head={['Code', 'Title', 'Scans']}
      cells={(r) => [
        <Anchor key="dtc" component={Link} to={links.faultCode(r.dtc)}>
          {r.dtc}
        </Anchor>,
        r.title ?? '-',
      ]}
    />
  );
}

type MakeRow = Overview['scansByMake'][number];

/** The 15 makes with most scans; a bar opens that make's scans of the period. */
export function ScansByMake({ data, links }: { data: Overview; links: OverviewLinks }) {
  return (
    <RankedBarsCard<MakeRow>
      title="Scans by make"
      description="The 15 makes with most scans; a bar opens that make's scans of the period"
      empty="No scans in this period."
      rows={data.scansByMake}
      label={(r) => r.make}
      value={(r) => r.scans}
      series={{ label: 'Scans', color: 'blue.6' }}
      href={(r) => links.scansOfMake(r.make)}
      layout={{ labelWidth: 110, rowHeight: 26, minHeight: 160 }}
      caption="Scans by make"
      head={['Make', 'Segment', 'Scans']}
      cells={(r) => [r.make, r.segment ?? '-']}
      figureLabel={(r) => `${r.make}: ${count(r.scans)} scans`}
    />
  );
}

type VersionRow = Overview['scansByAppVersion'][number];

/** Scans by app version; a bar opens that version's scans of the period. */
export function ScansByAppVersion({ data, links }: { data: Overview; links: OverviewLinks }) {
  return (
    <RankedBarsCard<VersionRow>
      title="Scans by app version"
      description="A bar opens that version's scans of the period"
      empty="No scans in this period."
      rows={data.scansByAppVersion}
      label={(r) => r.version ?? 'Not recorded'}
      value={(r) => r.scans}
      series={{ label: 'Scans', color: 'indigo.6' }}
      href={(r) => (r.version ? links.scansOfVersion(r.version) : undefined)}
      layout={{ height: 220 }}
      caption="Scans by app version"
      head={['App version', 'Scans']}
    />
  );
}
