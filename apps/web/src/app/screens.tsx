import type { Role } from '@obd/contract';
import type { QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { ListDeclaration } from '../list/declaration.ts';
import type { DetailDeclaration } from '../list/detail.ts';

/**
 * One guarded screen: the router and the sidebar both read this table.
 *
 * Every screen's code is loaded on demand: `load` is a dynamic `import()`, so the bundler puts the
 * screen — and whatever only it uses (the upload machinery, a chart library) — in its own chunk,
 * fetched the first time the screen is opened (the router calls `load`; see router.tsx). This file
 * is part of every page's download: it may import types and nothing else, so paths and labels are
 * written here as text (screens.test.tsx checks them against the features' own constants).
 */
export interface ScreenRoute {
  /** Verbatim from spec §2.2, typos included (decisions §1). */
  path: string;
  /** Sidebar label, also the document title. */
  label: string;
  /**
   * Fetches the screen's code and says what to show, e.g.
   * `() => import('../features/overview/OverviewScreen.tsx').then((m) => <m.OverviewScreen />)`.
   */
  load: () => Promise<ReactNode>;
  /**
   * Starts the screen's first request while its code downloads (router.tsx's RouteFrame calls it with
   * the address's query), so the answer is there when the screen first draws. List screens have it.
   */
  prefetch?: (queryClient: QueryClient, search: URLSearchParams) => Promise<void>;
  /** Detail screens are not in the sidebar; they highlight the link of the list they belong to. */
  sidebarParent?: string;
  /**
   * The least role the screen is for: a lesser role does not see it in the sidebar, and opening
   * its address says why (the server refuses its requests with 403 regardless).
   */
  role?: Role;
  /** Reached another way (the header's My account), not from the sidebar. */
  hiddenFromSidebar?: boolean;
}

const operations = () => import('../features/operations/declarations.tsx');
const operationDetails = () => import('../features/operations/details.tsx');
const catalogue = () => import('../features/catalogue/declarations.tsx');
const coverage = () => import('../features/catalogue/coverage.tsx');
const faultCodes = () => import('../features/faultCodes/declarations.tsx');
const uploads = () => import('../features/uploads/screens.tsx');
const importHistory = () => import('../features/uploads/importHistory.tsx');
const importDetails = () => import('../features/uploads/importDetails.tsx');
const audit = () => import('../features/audit/declarations.tsx');
const auditDetails = () => import('../features/audit/details.tsx');

/** Every guarded screen; the sidebar shows those without `sidebarParent`, in this order (spec §2.2). */
export const SCREENS: readonly ScreenRoute[] = [
  // Issue 13: the service at a glance, first in the sidebar (the sign-in still lands on Users Table, decisions).
  {
    path: '/Overview',
    label: 'Overview',
    load: () => import('../features/overview/OverviewScreen.tsx').then((m) => <m.OverviewScreen />),
  },
  listScreen('/UsersTable', 'Users Table', async () => (await operations()).usersList),
  // decisions §5: the sidebar corrects the spec's 'Covarage'.
  listScreen('/Api1', 'Coverage Data', async () => (await coverage()).coverageData),
  listScreen('/Api2', 'Mechanic Commands', async () => (await catalogue()).mechanicCommands),
  listScreen('/ObdScanReport', 'Cars Scans', async () => (await operations()).scansList),
  listScreen('/SpecilaFunction', 'Special Function', async () => (await operations()).specialFunctionsList),
  listScreen('/ActuationsDetail', 'Actuations Detail', async () => (await operations()).actuationsList),
  listScreen('/Customcommands1', 'Custom commands', async () => (await catalogue()).customCommands),
  listScreen('/ActuationFetcher', 'Actuation commands', async () => (await catalogue()).actuationCommands),
  listScreen('/CommandFetcher', 'SPF Commands', async () => (await catalogue()).spfCommands),
  listScreen('/ModelListPage', 'Model List Page', async () => (await catalogue()).modelListPage),
  listScreen('/BikeMakeList', 'Bike Make List', async () => (await catalogue()).bikeMakeList),
  listScreen('/OdometerDetails', 'Odometer commands', async () => (await catalogue()).odometerCommands),
  listScreen('/LiveDataCommands', 'Live Commands', async () => (await catalogue()).liveDataCommands),
  listScreen('/FaultCodeSymptoms', 'Fault Code Symptoms', async () => (await faultCodes()).faultCodeSymptoms),
  listScreen(
    '/FaultCodeSolutions',
    'Fault Code Solutions',
    async () => (await faultCodes()).faultCodeSolutions,
  ),
  listScreen('/FaultCodeCauses', 'Fault Code Causes', async () => (await faultCodes()).faultCodeCauses),
  listScreen('/FaultCodeList', 'Fault Code List', async () => (await faultCodes()).faultCodeList),
  {
    path: '/Updatecommand',
    label: 'Update commands',
    load: () => uploads().then((m) => <m.UpdateCommandsScreen />),
  },
  {
    path: '/FaultCodesUploader',
    label: 'Fault Codes Uploader',
    load: () => uploads().then((m) => <m.FaultCodesUploaderScreen />),
  },
  {
    path: '/FaultCodesUploader2',
    label: 'Fault Codes Uploader 2',
    load: () => uploads().then((m) => <m.FaultCodesImporterScreen />),
  },
  {
    path: '/ActivationCodesUploader',
    label: 'Activation Codes Uploader',
    load: () => uploads().then((m) => <m.ActivationCodesUploaderScreen />),
  },
  detailScreen('/ObdScanReport/details', 'Scan Details', '/ObdScanReport', () =>
    operationDetails().then((m) => m.scanDetails),
  ),
  detailScreen('/SpecialFunctions/details', 'Special Function Details', '/SpecilaFunction', () =>
    operationDetails().then((m) => m.specialFunctionDetails),
  ),
  detailScreen('/ActuationsDetail/details', 'Actuation Details', '/ActuationsDetail', () =>
    operationDetails().then((m) => m.actuationDetails),
  ),
  listScreen('/ImportHistory', 'Import History', async () => (await importHistory()).importHistoryList),
  detailScreen('/ImportHistory/details', 'Import Details', '/ImportHistory', () =>
    importDetails().then((m) => m.importDetails),
  ),
  // Not in the spec's sidebar (issue 10): the API's own document, for operators and integrators.
  {
    path: '/API',
    label: 'API',
    load: () => import('../features/api/ApiScreen.tsx').then((m) => <m.ApiScreen />),
  },
  // Issue 11: running the dashboard's own accounts, for admins.
  forRole('admin', 'The Operators screen', {
    path: '/Operators',
    label: 'Operators',
    load: () => import('../features/operators/OperatorsScreen.tsx').then((m) => <m.OperatorsScreen />),
  }),
  forRole(
    'admin',
    'The audit log',
    listScreen('/AuditLog', 'Audit log', async () => (await audit()).auditList),
  ),
  forRole(
    'admin',
    'The audit log',
    detailScreen(
      '/AuditLog/details',
      'Audit event',
      '/AuditLog',
      async () => (await auditDetails()).auditEventDetails,
    ),
  ),
  // Every operator's own account, from the header.
  {
    path: '/account',
    label: 'My account',
    load: () => import('../features/account/AccountScreen.tsx').then((m) => <m.AccountScreen />),
    hiddenFromSidebar: true,
  },
];

/** The screens listed in the sidebar (for roles that may use them). */
export const SIDEBAR_SCREENS = SCREENS.filter((screen) => !screen.sidebarParent && !screen.hiddenFromSidebar);

/** The screen registered for `pathname`, if any. */
export function screenAt(pathname: string): ScreenRoute | undefined {
  return SCREENS.find((screen) => screen.path.toLowerCase() === pathname.toLowerCase());
}

// The key makes React mount a fresh list (its own form and query) when the operator moves from
// one list screen to another, instead of reusing the previous screen's component state.
// `label` is the sidebar's name, which may differ from the screen's title ('Cars Scans' / 'Scan Details').
function listScreen<Row>(
  path: string,
  label: string,
  declaration: () => Promise<ListDeclaration<Row>>,
): ScreenRoute {
  return {
    path,
    label,
    load: async () => {
      const [{ ListScreen }, list] = await Promise.all([import('../list/ListScreen.tsx'), declaration()]);
      return <ListScreen key={path} declaration={list} />;
    },
    // The declaration and the list's query code only (small chunks): the request leaves before
    // ListScreen's chunk is in, with the key the screen's own query uses.
    prefetch: async (queryClient, search) => {
      const [{ prefetchList }, list] = await Promise.all([import('../list/listQuery.ts'), declaration()]);
      await prefetchList(queryClient, list, search);
    },
  };
}

/** A record's detail screen: not in the sidebar, which highlights the record's list (`listPath`) instead. */
function detailScreen<Rec>(
  path: string,
  label: string,
  listPath: string,
  declaration: () => Promise<DetailDeclaration<Rec>>,
): ScreenRoute {
  return {
    path,
    label,
    sidebarParent: listPath,
    load: async () => {
      const [{ DetailScreen }, detail] = await Promise.all([
        import('../list/DetailScreen.tsx'),
        declaration(),
      ]);
      return <DetailScreen key={path} declaration={detail} />;
    },
  };
}

/** A screen for `role` and above: lesser roles see why instead (`RoleGate`) and no sidebar entry. */
function forRole(role: Role, what: string, screen: ScreenRoute): ScreenRoute {
  return {
    ...screen,
    role,
    // Not asked ahead: for a lesser role the request would only be refused (403).
    prefetch: undefined,
    load: async () => {
      const [{ RoleGate }, element] = await Promise.all([import('./RoleGate.tsx'), screen.load()]);
      return (
        <RoleGate needs={role} title={screen.label} reason={`${what} needs the ${role} role`}>
          {element}
        </RoleGate>
      );
    },
  };
}
