import type { Role } from '@obd/contract';
import type { ReactNode } from 'react';
import { ACCOUNT_PATH, AccountScreen } from '../features/account/AccountScreen.tsx';
import { ApiScreen } from '../features/api/ApiScreen.tsx';
import { AUDIT_PATHS, auditEventDetails, auditList } from '../features/audit/declarations.tsx';
import {
  actuationCommands,
  bikeMakeList,
  coverageData,
  customCommands,
  liveDataCommands,
  mechanicCommands,
  modelListPage,
  odometerCommands,
  spfCommands,
} from '../features/catalogue/declarations.tsx';
import {
  faultCodeCauses,
  faultCodeList,
  faultCodeSolutions,
  faultCodeSymptoms,
} from '../features/faultCodes/declarations.tsx';
import {
  actuationsList,
  OPERATIONS_PATHS,
  scansList,
  specialFunctionsList,
  usersList,
} from '../features/operations/declarations.tsx';
import { actuationDetails, scanDetails, specialFunctionDetails } from '../features/operations/details.tsx';
import { OPERATORS_SCREEN_PATH } from '../features/operators/declarations.tsx';
import { OperatorsScreen } from '../features/operators/OperatorsScreen.tsx';
import { OverviewScreen } from '../features/overview/OverviewScreen.tsx';
import {
  IMPORT_HISTORY_PATHS,
  importDetails,
  importHistoryList,
} from '../features/uploads/importHistory.tsx';
import {
  ActivationCodesUploaderScreen,
  FaultCodesImporterScreen,
  FaultCodesUploaderScreen,
  UpdateCommandsScreen,
} from '../features/uploads/screens.tsx';
import { DetailScreen } from '../list/DetailScreen.tsx';
import type { ListDeclaration } from '../list/declaration.ts';
import type { DetailDeclaration } from '../list/detail.ts';
import { ListScreen } from '../list/ListScreen.tsx';
import { RoleGate } from './RoleGate.tsx';

/** One guarded screen: the router and the sidebar both read this table. */
export interface ScreenRoute {
  /** Verbatim from spec §2.2, typos included (decisions §1). */
  path: string;
  /** Sidebar label, also the document title. */
  label: string;
  element: ReactNode;
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

/** Every guarded screen; the sidebar shows those without `sidebarParent`, in this order (spec §2.2). */
export const SCREENS: readonly ScreenRoute[] = [
  // Issue 13: the service at a glance, first in the sidebar (the sign-in still lands on Users Table, decisions).
  { path: '/Overview', label: 'Overview', element: <OverviewScreen /> },
  listScreen(OPERATIONS_PATHS.users, usersList, 'Users Table'),
  // decisions §5: the sidebar corrects the spec's 'Covarage'.
  listScreen('/Api1', coverageData),
  listScreen('/Api2', mechanicCommands, 'Mechanic Commands'),
  listScreen(OPERATIONS_PATHS.scans, scansList, 'Cars Scans'),
  listScreen(OPERATIONS_PATHS.specialFunctions, specialFunctionsList),
  listScreen(OPERATIONS_PATHS.actuations, actuationsList),
  listScreen('/Customcommands1', customCommands),
  listScreen('/ActuationFetcher', actuationCommands),
  listScreen('/CommandFetcher', spfCommands),
  listScreen('/ModelListPage', modelListPage),
  listScreen('/BikeMakeList', bikeMakeList),
  listScreen('/OdometerDetails', odometerCommands),
  listScreen('/LiveDataCommands', liveDataCommands),
  listScreen('/FaultCodeSymptoms', faultCodeSymptoms),
  listScreen('/FaultCodeSolutions', faultCodeSolutions),
  listScreen('/FaultCodeCauses', faultCodeCauses),
  listScreen('/FaultCodeList', faultCodeList),
  { path: '/Updatecommand', label: 'Update commands', element: <UpdateCommandsScreen /> },
  { path: '/FaultCodesUploader', label: 'Fault Codes Uploader', element: <FaultCodesUploaderScreen /> },
  { path: '/FaultCodesUploader2', label: 'Fault Codes Uploader 2', element: <FaultCodesImporterScreen /> },
  {
    path: '/ActivationCodesUploader',
    label: 'Activation Codes Uploader',
    element: <ActivationCodesUploaderScreen />,
  },
  detailScreen(OPERATIONS_PATHS.scanDetails, scanDetails),
  detailScreen(OPERATIONS_PATHS.specialFunctionDetails, specialFunctionDetails),
  detailScreen(OPERATIONS_PATHS.actuationDetails, actuationDetails),
  listScreen(IMPORT_HISTORY_PATHS.list, importHistoryList),
  detailScreen(IMPORT_HISTORY_PATHS.details, importDetails),
  // Not in the spec's sidebar (issue 10): the API's own document, for operators and integrators.
  { path: '/API', label: 'API', element: <ApiScreen /> },
  // Issue 11: running the dashboard's own accounts, for admins.
  forRole('admin', 'The Operators screen', {
    path: OPERATORS_SCREEN_PATH,
    label: 'Operators',
    element: <OperatorsScreen />,
  }),
  forRole('admin', 'The audit log', listScreen(AUDIT_PATHS.list, auditList)),
  forRole('admin', 'The audit log', detailScreen(AUDIT_PATHS.details, auditEventDetails)),
  // Every operator's own account, from the header.
  { path: ACCOUNT_PATH, label: 'My account', element: <AccountScreen />, hiddenFromSidebar: true },
];

/** The screens listed in the sidebar (for roles that may use them). */
export const SIDEBAR_SCREENS = SCREENS.filter((screen) => !screen.sidebarParent && !screen.hiddenFromSidebar);

/** The screen registered for `pathname`, if any. */
export function screenAt(pathname: string): ScreenRoute | undefined {
  return SCREENS.find((screen) => screen.path.toLowerCase() === pathname.toLowerCase());
}

// The key makes React mount a fresh list (its own form and query) when the operator moves from
// one list screen to another, instead of reusing the previous screen's component state.
// `label` is the sidebar's name when it differs from the screen's title ('Cars Scans' / 'Scan Details').
function listScreen<Row>(
  path: string,
  declaration: ListDeclaration<Row>,
  label = declaration.title,
): ScreenRoute {
  return { path, label, element: <ListScreen key={path} declaration={declaration} /> };
}

/** A record's detail screen: not in the sidebar, which highlights the record's list instead. */
function detailScreen<Rec>(path: string, declaration: DetailDeclaration<Rec>): ScreenRoute {
  return {
    path,
    label: declaration.title,
    element: <DetailScreen key={path} declaration={declaration} />,
    sidebarParent: declaration.listPath,
  };
}

/** A screen for `role` and above: lesser roles see why instead (`RoleGate`) and no sidebar entry. */
function forRole(role: Role, what: string, screen: ScreenRoute): ScreenRoute {
  return {
    ...screen,
    role,
    element: (
      <RoleGate needs={role} title={screen.label} reason={`${what} needs the ${role} role`}>
        {screen.element}
      </RoleGate>
    ),
  };
}
