/** The Overview's chart cards about app users and imports (issue 13): each bar opens its list, filtered. */
import { BarChart } from '@mantine/charts';
import { Anchor } from '@mantine/core';
import type { Overview } from '@obd/contract';
import { Link, useNavigate } from 'react-router';
import { ChartCard, FiguresTable } from './ChartCard.tsx';
import { count, rowOf, shortDay } from './format.ts';
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

/** Imports per day, stacked by outcome; a bar opens the import history at that outcome. */
export function ImportsPerDay({ data, links }: { data: Overview; links: OverviewLinks }) {
  const navigate = useNavigate();
  const rows = data.importsPerDay;
  return (
    <ChartCard
      title="Imports per day"
      description="By outcome; a bar opens the import history of that day at that outcome"
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
            onClick: (bar: { payload?: unknown }) =>
              navigate(links.importsOnDay(rowOf<{ day: string }>(bar).day, series.name)),
          })}
        />
      }
      table={
        <FiguresTable
          caption="Imports per day by outcome"
          head={['Day', ...IMPORT_SERIES.map((s) => s.label)]}
          rows={rows.map((r) => ({
            key: r.day,
            cells: [
              <Anchor key="day" component={Link} to={links.importsOnDay(r.day)}>
                {r.day}
              </Anchor>,
              ...IMPORT_SERIES.map((s) =>
                r[s.name] > 0 ? (
                  <Anchor key={s.name} component={Link} to={links.importsOnDay(r.day, s.name)}>
                    {count(r[s.name])}
                  </Anchor>
                ) : (
                  count(0)
                ),
              ),
            ],
          }))}
        />
      }
    />
  );
}
