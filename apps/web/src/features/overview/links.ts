import type { FilterField } from '../../list/declaration.ts';
import { filterParams, listHref } from '../../list/listState.ts';
import { type ListSort, writeSort } from '../../list/sortState.ts';
import { coverageData } from '../catalogue/declarations.tsx';
import { faultCodeList } from '../faultCodes/declarations.tsx';
import {
  actuationsList,
  OPERATIONS_PATHS,
  scansList,
  specialFunctionsList,
  usersList,
} from '../operations/declarations.tsx';
import { IMPORT_HISTORY_PATHS, importHistoryList } from '../uploads/importHistory.tsx';

/**
 * Every door from the Overview and the search palette into a list: one function, `listLink`, which
 * writes the list's address exactly as the list writes its own (the list engine's `listHref`, from
 * the list's declared filters). A filter the list does not declare is dropped, as the list itself
 * would drop it from a pasted address — so the tests of these links fail if a list loses a filter.
 */

interface ListTarget {
  path: string;
  filters: readonly FilterField[];
}

/** The lists the Overview and the palette open, by name. */
export const LIST_TARGETS = {
  scans: { path: OPERATIONS_PATHS.scans, filters: scansList.filters },
  specialFunctions: { path: OPERATIONS_PATHS.specialFunctions, filters: specialFunctionsList.filters },
  actuations: { path: OPERATIONS_PATHS.actuations, filters: actuationsList.filters },
  users: { path: OPERATIONS_PATHS.users, filters: usersList.filters },
  faultCodes: { path: '/FaultCodeList', filters: faultCodeList.filters },
  coverage: { path: '/Api1', filters: coverageData.filters },
  imports: { path: IMPORT_HISTORY_PATHS.list, filters: importHistoryList.filters },
} as const satisfies Record<string, ListTarget>;

export type ListName = keyof typeof LIST_TARGETS;

/** A list's filter values by query-parameter name; empty and undefined values are left out. */
export type ListFilter = Readonly<Record<string, string | null | undefined>>;

/** The address of `list` searched for `filter`, page 1, sorted by `sort` when given. */
export function listLink(list: ListName, filter: ListFilter = {}, sort?: ListSort): string {
  const target: ListTarget = LIST_TARGETS[list];
  const href = listHref(target.path, target.filters, filter);
  if (!sort) return href;
  const [path, query] = href.split('?');
  return `${path}?${writeSort(new URLSearchParams(query), sort)}`;
}

/** The scans list's filter for a period of days (started on or after `from`, ended on or before `to`). */
export function scanPeriod(from: string, to: string): ListFilter {
  return { scan_start_time: from, scan_end_time: to };
}

/** Whether `list` declares every filter of `filter` (a link dropping one would show more than asked). */
export function listAccepts(list: ListName, filter: Readonly<Record<string, string>>): boolean {
  const target: ListTarget = LIST_TARGETS[list];
  const names = new Set(target.filters.flatMap((field) => filterParams(field)));
  return Object.keys(filter).every((name) => names.has(name));
}

/** The doors of the Overview: each mark's list, filtered (one function per kind of mark, all through `listLink`). */
export function overviewLinks(period: { from: string; to: string }) {
  const inPeriod = scanPeriod(period.from, period.to);
  return {
    scans: () => listLink('scans', inPeriod),
    // "App users who scanned": no list filters people by "scanned in a period" (the users list
    // filters by e-mail, plan, status and creation date), so the door is the period's scans by
    // e-mail — each person who scanned, their scans together.
    scanners: () => listLink('scans', inPeriod, { field: 'email', order: 'asc' }),
    scansOnDay: (day: string) => listLink('scans', scanPeriod(day, day)),
    scansOnDayOfSegment: (day: string, segment: string) =>
      listLink('scans', { ...scanPeriod(day, day), segment }),
    scansOfMake: (make: string) => listLink('scans', { ...inPeriod, make }),
    scansOfVersion: (version: string) => listLink('scans', { ...inPeriod, app_version: version }),
    scansReporting: (dtc: string) => listLink('scans', { ...inPeriod, dtc }),
    faultCode: (dtc: string) => listLink('faultCodes', { dtc }),
    specialFunctions: () => listLink('specialFunctions', inPeriod),
    actuations: () => listLink('actuations', { created_from: period.from, created_to: period.to }),
    newUsers: () => listLink('users', { created_from: period.from, created_to: period.to }),
    usersOfPlan: (plan: string) => listLink('users', { plan }),
    usersOfStatus: (status: string) => listLink('users', { status }),
    coverageOfMake: (make: string) => listLink('coverage', { make }),
    imports: (status?: string) => listLink('imports', { status }),
    importsOnDay: (day: string, status?: string) => listLink('imports', { day, status }),
  };
}

/** The Overview's doors for one period, as the chart and figure cards receive them. */
export type OverviewLinks = ReturnType<typeof overviewLinks>;
