import { addDays, type Overview, type OverviewSegment, SEGMENTS } from '@obd/contract';
import type { OverviewRows } from './repository.ts';

/** The overview's rows → the contract's document (`overviewSchema`). */

const num = (v: unknown) => Number(v ?? 0);

const byCount =
  <T>(count: (t: T) => number, name: (t: T) => string) =>
  (a: T, b: T) =>
    count(b) - count(a) || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0);

const segmentOf = (key: string): OverviewSegment =>
  (SEGMENTS as readonly string[]).includes(key) ? (key as OverviewSegment) : 'other';

export function toOverview(r: OverviewRows): Overview {
  const figure = (k: keyof typeof r.current) => ({ value: r.current[k], previous: r.before[k] });

  const perDay = new Map<string, Overview['scansPerDay'][number]>();
  for (let d = r.period.from; d <= r.period.to; d = addDays(d, 1)) {
    perDay.set(d, { day: d, car: 0, bike: 0, three_wheeler: 0, hcv: 0, other: 0 });
  }
  for (const row of r.segmentDays) {
    const entry = perDay.get(row.day);
    if (entry) entry[segmentOf(row.key)] += num(row.n);
  }

  const segments = new Map(r.segmentsOfMakes.map((m) => [m.name, m.segment]));

  const functionTypes = [...new Set(r.coverage.map((c) => c.function_type))].sort();
  const coverageByMake = new Map<string, number[]>();
  for (const c of r.coverage) {
    const counts = coverageByMake.get(c.make) ?? functionTypes.map(() => 0);
    counts[functionTypes.indexOf(c.function_type)] = num(c.n);
    coverageByMake.set(c.make, counts);
  }
  const coverageMakes = [...coverageByMake.entries()]
    .map(([make, counts]) => ({ make, total: counts.reduce((s, n) => s + n, 0), counts }))
    .sort(
      byCount(
        (m) => m.total,
        (m) => m.make,
      ),
    );

  const importDays = new Map<string, Overview['importsPerDay'][number]>();
  for (const row of r.imports) {
    const entry = importDays.get(row.day) ?? { day: row.day, succeeded: 0, failed: 0, running: 0 };
    const status = row.status === 'succeeded' || row.status === 'failed' ? row.status : 'running';
    entry[status] += num(row.n);
    importDays.set(row.day, entry);
  }

  return {
    period: { from: r.period.from, to: r.period.to, days: r.days },
    previousPeriod: r.previous,
    scanDays: {
      first: r.span.first ? r.span.first.slice(0, 10) : null,
      last: r.span.last ? r.span.last.slice(0, 10) : null,
    },
    figures: {
      scans: figure('scans'),
      specialFunctionRuns: figure('specialFunctionRuns'),
      actuationRuns: figure('actuationRuns'),
      scanningUsers: figure('scanningUsers'),
      newUsers: figure('newUsers'),
      imports: figure('imports'),
      failedImports: figure('failedImports'),
    },
    scansPerDay: [...perDay.values()],
    topFaultCodes: r.codes.map(([dtc, scans]) => ({ dtc, title: r.titles.get(dtc) ?? null, scans })),
    scansByMake: r.makes.map(([make, scans]) => ({ make, segment: segments.get(make) ?? null, scans })),
    scansByAppVersion: r.versions.map(([version, scans]) => ({
      version: version === '' ? null : version,
      scans,
    })),
    usersByPlan: r.plans
      .map((p) => ({ plan: p.plan, users: num(p.n) }))
      .sort(
        byCount(
          (p) => p.users,
          (p) => p.plan,
        ),
      ),
    usersByStatus: r.statuses
      .map((s) => ({ status: s.status, users: num(s.n) }))
      .sort(
        byCount(
          (s) => s.users,
          (s) => s.status,
        ),
      ),
    coverage: { functionTypes, makes: coverageMakes },
    importsPerDay: [...importDays.values()].sort((a, b) => (a.day < b.day ? -1 : 1)),
  };
}
