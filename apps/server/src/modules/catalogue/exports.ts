import {
  ACTUATION_COMMANDS_PAGE_SIZE,
  type ActuationCommandQuery,
  actuationCommandQuerySchema,
  type CoverageQuery,
  coverageQuerySchema,
  exportFileName,
  exportFileNameDateFirst,
  type MakeListQuery,
  type ModelListQuery,
  makeListQuerySchema,
  modelListQuerySchema,
  type OdometerQuery,
  odometerQuerySchema,
} from '@obd/contract';
import type { Db } from '../../db/database.ts';
import type { ExportRegistry } from '../../export/registry.ts';
import { toActuationCommands, toOdometer } from './mapper.ts';
import { coverageQuery, listActuationCommands, listMakes, listModels, odometerQuery } from './repository.ts';

// Row sources are named functions so that TypeScript infers each export's row type from them;
// each reads its list's own query.

const coverageRows = (db: Db, q: CoverageQuery) =>
  db.streamRows(coverageQuery(db.kysely, db.dialect, q).compile());

/** A whole, unpaged list as one export batch, numbered from 1 for the S.No column. */
async function* numbered<Row>(rows: Promise<Row[]>) {
  yield (await rows).map((row, i) => ({ ...row, sno: i + 1 }));
}
const makeRows = (db: Db, q: MakeListQuery) => numbered(listMakes(db.kysely, db.dialect, q));
const modelRows = (db: Db, q: ModelListQuery) => numbered(listModels(db.kysely, db.dialect, q));

/** The list's cards, a page of types at a time; one CSV row per detail of every card (issue 3). */
async function* actuationRows(db: Db, q: ActuationCommandQuery) {
  const limit = ACTUATION_COMMANDS_PAGE_SIZE;
  for (let page = 1; ; page += 1) {
    const cards = toActuationCommands(
      await listActuationCommands(db.kysely, db.dialect, { ...q, page, limit }),
    );
    if (cards.length === 0) return;
    yield cards.flatMap((card) => card.details.map((detail) => ({ ...card, detail })));
    if (cards.length < limit) return;
  }
}

async function* odometerRows(db: Db, q: OdometerQuery) {
  for await (const batch of db.streamRows(odometerQuery(db.kysely, db.dialect, q).compile())) {
    yield batch.map(toOdometer);
  }
}

/** The catalogue lists' downloads: every row the list's filters match, in the list's order. */
export function registerCatalogueExports(exports: ExportRegistry) {
  exports.register({
    list: 'coverage',
    formats: ['xlsx'],
    querySchema: coverageQuerySchema,
    sheetName: 'Coverage Data',
    fileName: (q, format) => exportFileName('Coverage_Data', [q.make], format),
    columns: [
      { header: 'Function Name', value: (row) => row.function_name },
      { header: 'Function Type', value: (row) => row.function_type },
    ],
    rows: coverageRows,
  });

  exports.register({
    list: 'makes',
    formats: ['csv'],
    querySchema: makeListQuerySchema,
    sheetName: 'Makes',
    fileName: (q, format) => exportFileName('Bike_Makes', [q.segment], format),
    columns: [
      { header: 'S.No', value: (row) => row.sno },
      { header: 'Segment', value: (row) => row.segment },
      { header: 'Make Name', value: (row) => row.name },
    ],
    rows: makeRows,
  });

  exports.register({
    list: 'models',
    formats: ['csv'],
    querySchema: modelListQuerySchema,
    sheetName: 'Models',
    fileName: (q, format) => exportFileName('Model_List', [q.make], format),
    columns: [
      { header: 'S.No', value: (row) => row.sno },
      { header: 'Make', value: (row) => row.make },
      { header: 'Model Name', value: (row) => row.name },
    ],
    rows: modelRows,
  });

  exports.register({
    list: 'actuationCommands',
    formats: ['csv'],
    querySchema: actuationCommandQuerySchema,
    sheetName: 'Actuation Commands',
    fileName: (q, format) => exportFileNameDateFirst('Actuation_Commands', [q.make, q.model, q.year], format),
    columns: [
      { header: 'Actuation Type', value: (row) => row.actuation_type },
      { header: 'Message', value: (row) => row.message },
      { header: 'PID', value: (row) => row.detail.pid },
      { header: 'Actuation Subtype', value: (row) => row.detail.actuation_subtype },
      { header: 'Last Subtype', value: (row) => row.detail.last_subtype },
      { header: 'Seed Key Variant', value: (row) => row.detail.seed_key_variant },
      { header: 'Detail Message', value: (row) => row.detail.message },
      { header: 'Message Item', value: (row) => (row.detail.message_item ? 'Yes' : 'No') },
      { header: 'Success Check', value: (row) => row.detail.success_check },
    ],
    rows: actuationRows,
  });

  exports.register({
    list: 'odometer',
    formats: ['csv'],
    querySchema: odometerQuerySchema,
    sheetName: 'Odometer Details',
    fileName: (q, format) => exportFileNameDateFirst('Odometer_Details', [q.make, q.model, q.year], format),
    columns: [
      { header: 'Header', value: (row) => row.header },
      { header: 'Sub Header', value: (row) => row.subHeader },
      { header: 'PID', value: (row) => row.pid },
      { header: 'Protocol', value: (row) => row.protocol },
      { header: 'System', value: (row) => row.system },
      { header: 'Init', value: (row) => row.init },
      { header: 'Formula Based', value: (row) => (row.formulaBased ? 'Yes' : 'No') },
      { header: 'Generic', value: (row) => (row.generic ? 'Yes' : 'No') },
      { header: 'Formula (Metric)', value: (row) => row.formula_metric },
      { header: 'Formula (Imperial)', value: (row) => row.formula_imperial },
      { header: 'Unit (Metric)', value: (row) => row.unit_metric },
      { header: 'Unit (Imperial)', value: (row) => row.unit_imperial },
    ],
    rows: odometerRows,
  });
}
