/**
 * The two kinds of bar chart on the Overview, each a ChartCard whose table carries the same figures
 * and the same links: ranked bars (one bar per make, code, version, plan…) and days stacked by
 * series (scans by segment, imports by outcome). The cards in ScanCharts.tsx and
 * UserAndImportCharts.tsx are declarations of these.
 */
import { BarChart } from '@mantine/charts';
import { Anchor } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useNavigate } from '../../app/navigation.tsx';
import { ChartCard, FiguresTable } from './ChartCard.tsx';
import { count, rowOf, shortDay } from './format.ts';

/** A figure linking to its list when it has one. */
function FigureLink({ to, label, children }: { to: string | undefined; label?: string; children: string }) {
  if (to === undefined) return <>{children}</>;
  return (
    <Anchor component={Link} to={to} aria-label={label}>
      {children}
    </Anchor>
  );
}

interface RankedBarsProps<R> {
  title: string;
  description: string;
  /** The sentence shown when there are no rows. */
  empty: string;
  rows: readonly R[];
  /** The bar's name on the axis. */
  label: (row: R) => string;
  value: (row: R) => number;
  series: { label: string; color: string };
  /** Where the bar and its figure lead; undefined: not a door. */
  href: (row: R) => string | undefined;
  caption: string;
  /** The table's heads: the cells of `cells`, then the figure's. */
  head: readonly string[];
  /** The cells before the figure (default: the label). */
  cells?: (row: R) => readonly ReactNode[];
  /** The figure's accessible name, when its number alone would not say what it counts. */
  figureLabel?: (row: R) => string;
  /** Horizontal bars (names on the left) sized per row, or upright bars of a fixed height. */
  layout: { labelWidth: number; rowHeight: number; minHeight: number } | { height: number };
  tooltipLabel?: (row: R) => string;
}

/** One bar per row, largest first as the server ranks them; a bar opens its list. */
export function RankedBarsCard<R>(props: RankedBarsProps<R>) {
  const navigate = useNavigate();
  const { rows, layout } = props;
  // The chart's rows carry their position, so a click finds the declaration's row again.
  const data = rows.map((row, index) => ({ index, label: props.label(row), value: props.value(row) }));
  const rowAt = (bar: { payload?: unknown }) => rows[rowOf<{ index: number }>(bar).index] as R;
  const tooltipLabel = props.tooltipLabel;
  return (
    <ChartCard
      title={props.title}
      description={props.description}
      empty={rows.length === 0 && props.empty}
      chart={
        <BarChart
          data={data}
          dataKey="label"
          series={[{ name: 'value', ...props.series }]}
          {...('height' in layout
            ? { h: layout.height }
            : {
                h: Math.max(layout.minHeight, rows.length * layout.rowHeight),
                orientation: 'vertical' as const,
                yAxisProps: { width: layout.labelWidth },
              })}
          tooltipProps={
            tooltipLabel && {
              labelFormatter: (label: unknown) => {
                const row = rows[data.findIndex((d) => d.label === label)];
                return row === undefined ? String(label) : tooltipLabel(row);
              },
            }
          }
          barProps={{
            style: { cursor: 'pointer' },
            onClick: (bar) => {
              const to = props.href(rowAt(bar));
              if (to !== undefined) navigate(to);
            },
          }}
        />
      }
      table={
        <FiguresTable
          caption={props.caption}
          head={props.head}
          rows={rows.map((row) => ({
            key: props.label(row),
            cells: [
              ...(props.cells ? props.cells(row) : [props.label(row)]),
              <FigureLink key="figure" to={props.href(row)} label={props.figureLabel?.(row)}>
                {count(props.value(row))}
              </FigureLink>,
            ],
          }))}
        />
      }
    />
  );
}

interface StackedDaysProps<S extends string, R extends { day: string } & Record<S, number>> {
  title: string;
  description: string;
  /** The sentence shown instead of the chart, or false. */
  empty: string | false;
  rows: readonly R[];
  series: readonly { name: S; label: string; color: string }[];
  height: number;
  /** Where a day's part of one series leads. */
  href: (day: string, series: S) => string;
  /** Where the whole day leads: its cell becomes a link. */
  dayHref?: (day: string) => string;
  /** Where the day's total leads: a Total column is added. */
  totalHref?: (day: string) => string;
  caption: string;
}

/** One bar per day, stacked by series; a segment opens that day's rows of that series. */
export function StackedDaysCard<S extends string, R extends { day: string } & Record<S, number>>(
  props: StackedDaysProps<S, R>,
) {
  const navigate = useNavigate();
  const { rows, series, dayHref, totalHref } = props;
  const total = (row: R) => series.reduce((sum, s) => sum + row[s.name], 0);
  return (
    <ChartCard
      title={props.title}
      description={props.description}
      empty={props.empty}
      chart={
        <BarChart
          h={props.height}
          data={rows as R[]}
          dataKey="day"
          type="stacked"
          series={series.map((s) => ({ ...s }))}
          withLegend
          xAxisProps={{ tickFormatter: shortDay }}
          barProps={(bar) => ({
            style: { cursor: 'pointer' },
            onClick: (clicked: { payload?: unknown }) =>
              navigate(props.href(rowOf<{ day: string }>(clicked).day, bar.name as S)),
          })}
        />
      }
      table={
        <FiguresTable
          caption={props.caption}
          head={['Day', ...series.map((s) => s.label), ...(totalHref ? ['Total'] : [])]}
          rows={rows.map((row) => ({
            key: row.day,
            cells: [
              dayHref ? (
                <FigureLink key="day" to={dayHref(row.day)}>
                  {row.day}
                </FigureLink>
              ) : (
                row.day
              ),
              ...series.map((s) => (
                <FigureLink key={s.name} to={row[s.name] > 0 ? props.href(row.day, s.name) : undefined}>
                  {count(row[s.name])}
                </FigureLink>
              )),
              ...(totalHref
                ? [
                    <FigureLink key="total" to={totalHref(row.day)}>
                      {count(total(row))}
                    </FigureLink>,
                  ]
                : []),
            ],
          }))}
        />
      }
    />
  );
}
