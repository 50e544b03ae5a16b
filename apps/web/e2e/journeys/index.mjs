// The journeys, in order: the first creates the admin account the others sign in with.
import { accessibility } from './accessibility.mjs';
import { apiScreen } from './apiScreen.mjs';
import {
  catalogueCommandLists,
  catalogueCoverageAndCommands,
  catalogueMakesAndModels,
} from './catalogue.mjs';
import { faultCodeBrowsers } from './faultCodeBrowsers.mjs';
import { faultCodeListState } from './faultCodeListState.mjs';
import { importPreviewJourney } from './importPreview.mjs';
import { listSort, listSortCatalogueAndAudit } from './listSort.mjs';
import { listViews } from './listViews.mjs';
import { operationsLists } from './operationsLists.mjs';
import { operationsScans } from './operationsScans.mjs';
import { operatorAccounts } from './operatorAccounts.mjs';
import { operatorsAndAudit } from './operatorsAndAudit.mjs';
import { overviewSearch } from './overviewSearch.mjs';
import { servedByHostName } from './servedByHostName.mjs';
import { signupLogoutLogin } from './signupLogoutLogin.mjs';
import { uploadsActivationAndUpdateCommands, uploadsFaultCodesAndHistory } from './uploads.mjs';
import { wrongPasswordAndNarrowScreen } from './wrongPasswordAndNarrowScreen.mjs';

export const journeys = [
  signupLogoutLogin,
  servedByHostName,
  faultCodeListState,
  faultCodeBrowsers,
  catalogueCoverageAndCommands,
  catalogueMakesAndModels,
  catalogueCommandLists,
  operationsScans,
  listSort,
  listSortCatalogueAndAudit,
  listViews,
  operationsLists,
  uploadsActivationAndUpdateCommands,
  uploadsFaultCodesAndHistory,
  importPreviewJourney,
  wrongPasswordAndNarrowScreen,
  apiScreen,
  operatorsAndAudit,
  operatorAccounts,
  overviewSearch,
  accessibility,
];
