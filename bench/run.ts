/** `npm run bench`: every benchmark in turn; figures are recorded by hand in bench/RESULTS.md. */
import { benchCompression } from './compression.ts';
import { benchExport } from './export.ts';
import { benchImport } from './import.ts';
import { benchFilterPairs, benchLists } from './lists.ts';
import { benchOperations, operationsDatabases } from './operations.ts';
import { benchOverview, overviewDatabases } from './overview.ts';
import { benchScale } from './scale.ts';
import { benchSoak } from './soak.ts';
import { benchSortAll, benchSortWrites } from './sort.ts';
import { benchWebVitals } from './webVitals.ts';

console.log('== list endpoints on the demo database (SQLite)');
await benchLists();
if (process.env.BENCH_DATABASE_URL) {
  console.log('== list endpoints on PostgreSQL');
  await benchLists(process.env.BENCH_DATABASE_URL);
}
console.log('== exports of 1,000,000 rows');
await benchExport();
console.log('== operations lists at 1,000,000 rows (BENCH_OPS_PG for PostgreSQL)');
await benchOperations();
console.log(
  '== every pair of the scans, special-function, actuation and users lists filters at 1,000,000 rows, pages 1 and 100 (same databases)',
);
for (const url of operationsDatabases()) await benchFilterPairs(url);
console.log(
  '== the scans list at 1,000,000 and 3,000,000 rows (BENCH_SCALE_1M / _3M; seeding 3M takes 30+ min)',
);
await benchScale();
console.log('== sort by any column at 1,000,000 rows, and what its indexes cost a write');
await benchSortAll();
await benchSortWrites();
console.log('== overview and search at 1,000,000 scans (BENCH_OVERVIEW_PG for PostgreSQL)');
for (const url of overviewDatabases()) await benchOverview(url);
console.log('== imports');
await benchImport();
console.log('== compressed answers at 50 connections');
await benchCompression();
console.log('== web vitals: login page and scans list in Chromium, cold and warm cache');
await benchWebVitals();
console.log('== soak: 50 connections for 5 minutes over varied list URLs (SOAK_SECONDS to shorten)');
await benchSoak();
