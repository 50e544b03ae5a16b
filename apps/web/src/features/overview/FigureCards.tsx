import { Anchor, Card, SimpleGrid, Text } from '@mantine/core';
import type { Overview, OverviewFigure } from '@obd/contract';
import { Link } from '../../app/navigation.tsx';
import { count } from './format.ts';
import type { OverviewLinks } from './links.ts';

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

/** The figure cards of the period, each against the previous period; a figure with a list opens it. */
export function FigureCards({ data, links }: { data: Overview; links: OverviewLinks }) {
  const f = data.figures;
  const failed = f.failedImports;
  const cards: { label: string; figure: OverviewFigure; href?: string; note?: string }[] = [
    { label: 'Scans', figure: f.scans, href: links.scans() },
    { label: 'Special-function runs', figure: f.specialFunctionRuns, href: links.specialFunctions() },
    { label: 'Actuation runs', figure: f.actuationRuns, href: links.actuations() },
    { label: 'App users who scanned', figure: f.scanningUsers, href: links.scanners() },
    { label: 'New app users', figure: f.newUsers, href: links.newUsers() },
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
