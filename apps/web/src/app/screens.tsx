import type { ReactNode } from 'react';
import { ApiScreen } from '../features/api/ApiScreen.tsx';
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

/** One guarded screen: the router and the sidebar both read this table. */
export interface ScreenRoute {
  /** Verbatim from spec §2.2, typos included (decisions §1). */
  path: string;
  /** Sidebar label, also the document title. */
  label: string;
  element: ReactNode;
  /** Detail screens are not in the sidebar; they highlight the link of the list they belong to. */
  sidebarParent?: string;
}

/** Every guarded screen; the sidebar shows those without `sidebarParent`, in this order (spec §2.2). */
export const SCREENS: readonly ScreenRoute[] = [
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
];

/** The screens listed in the sidebar. */
export const SIDEBAR_SCREENS = SCREENS.filter((screen) => !screen.sidebarParent);

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
