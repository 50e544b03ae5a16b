/** The Overview's chart cards about app users and imports (issue 13): each bar opens its list, filtered. */
import type { Overview } from '@obd/contract';
import { RankedBarsCard, StackedDaysCard } from './BarCards.tsx';
import type { OverviewLinks } from './links.ts';

const IMPORT_SERIES = [
  { name: 'succeeded', label: 'Succeeded', color: 'teal.6' },
  { name: 'failed', label: 'Failed', color: 'red.6' },
  { name: 'running', label: 'Running', color: 'yellow.6' },
] as const;

/** All app users now by plan or by status; a bar opens the users of that plan or status. */
export function UsersBy({
  data,
  links,
  by,
}: {
  data: Overview;
  links: OverviewLinks;
  by: 'plan' | 'status';
}) {
  const rows =
    by === 'plan'
      ? data.usersByPlan.map((r) => ({ key: r.plan, users: r.users }))
      : data.usersByStatus.map((r) => ({ key: r.status, users: r.users }));
  const title = by === 'plan' ? 'App users by plan' : 'App users by status';
  return (
    <RankedBarsCard<(typeof rows)[number]>
      title={title}
      description={`All app users now; a bar opens the users of that ${by}`}
      empty="No app users yet."
      rows={rows}
      label={(r) => r.key}
      value={(r) => r.users}
      series={{ label: 'Users', color: by === 'plan' ? 'cyan.6' : 'orange.6' }}
      href={(r) => (by === 'plan' ? links.usersOfPlan(r.key) : links.usersOfStatus(r.key))}
      layout={{ labelWidth: 100, rowHeight: 30, minHeight: 140 }}
      caption={title}
      head={[by === 'plan' ? 'Plan' : 'Status', 'Users']}
    />
  );
}

/** Imports per day, stacked by outcome; a bar opens the import history at that outcome. */
export function ImportsPerDay({ data, links }: { data: Overview; links: OverviewLinks }) {
  return (
    <StackedDaysCard
      title="Imports per day"
      description="By outcome; a bar opens the import history of that day at that outcome"
      empty={data.importsPerDay.length === 0 && 'No imports in this period.'}
      rows={data.importsPerDay}
      series={IMPORT_SERIES}
      height={220}
      href={links.importsOnDay}
      dayHref={links.importsOnDay}
      caption="Imports per day by outcome"
    />
  );
}
