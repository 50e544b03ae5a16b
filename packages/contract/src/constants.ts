/**
 * The contract's values without zod: paths, sort fields, page sizes, value lists, labels and the
 * zod-free helpers. The web app's first download imports these from `@obd/contract/constants`, so a
 * list page does not fetch zod and every schema with its path; the schemas stay in `@obd/contract`
 * (which re-exports all of this too, for the server) and are loaded beside the requests.
 */
export * from './audit/audit.constants.ts';
export * from './auth/auth.constants.ts';
export * from './catalogue/commands.constants.ts';
export * from './catalogue/coverage.constants.ts';
export * from './catalogue/grouped.constants.ts';
export * from './catalogue/makes.constants.ts';
export * from './catalogue/vehicleCommands.constants.ts';
export * from './common/display.ts';
export * from './common/errors.constants.ts';
export * from './common/export.constants.ts';
export * from './common/list.constants.ts';
export * from './common/openapi.ts';
export * from './common/pager.ts';
export * from './common/sort.constants.ts';
export * from './faultCodes/faultCodes.constants.ts';
export * from './operations/runs.constants.ts';
export * from './operations/users.constants.ts';
export * from './operators/invitations.constants.ts';
export * from './operators/operators.constants.ts';
export * from './overview.constants.ts';
export * from './search.constants.ts';
export * from './uploads/importFlow.constants.ts';
export * from './uploads/importUndo.constants.ts';
export * from './uploads/makes.ts';
export * from './uploads/uploads.constants.ts';
export * from './views/views.constants.ts';
