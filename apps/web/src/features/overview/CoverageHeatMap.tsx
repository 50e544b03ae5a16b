import { MatrixChart } from '@mantine/charts';
import { Anchor } from '@mantine/core';
import type { Overview } from '@obd/contract';
import { Link, useNavigate } from '../../app/navigation.tsx';
import { ChartCard, FiguresTable } from './ChartCard.tsx';
import { count } from './format.ts';
import type { OverviewLinks } from './links.ts';

/** Coverage as a heat map of function type × make; a cell opens that make's coverage. */
export function CoverageHeatMap({ data, links }: { data: Overview; links: OverviewLinks }) {
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
