import type { Readable } from 'node:stream';
import type { ExportFormat, Role } from '@obd/contract';
import type { z } from 'zod';
import type { Db } from '../db/database.ts';
import type { ExportColumn } from './columns.ts';

/**
 * Everything the export engine needs to know about one list. A module declares this next to
 * its routes, reusing the list's query schema and repository query, so an export always has
 * exactly the list's filters and rows — all of them, never a silent cap (decisions §6).
 */
export interface ExportDefinition<Query, Row> {
  /** The name the web app asks for, e.g. `coverage`. */
  list: string;
  /** The least role that may download it, like its list's route (`audit`, `operators`: admin); any operator if absent. */
  role?: Role;
  formats: readonly ExportFormat[];
  querySchema: z.ZodType<Query, unknown>;
  sheetName: string;
  fileName: (query: Query, format: ExportFormat) => string;
  columns: ExportColumn<Row>[];
  /** All matching rows, in the list's order, in bounded batches. */
  rows: (db: Db, query: Query) => AsyncIterable<Row[]>;
}

/** A single document (a scan's PDF report) delivered through the same single-use links. */
export interface DocumentDefinition<Query> {
  list: string;
  role?: Role;
  formats: readonly ['pdf'];
  querySchema: z.ZodType<Query, unknown>;
  fileName: (query: Query) => string;
  /** Throws an HttpError (e.g. 404) before any byte is sent when the document cannot be made. */
  render: (db: Db, query: Query) => Promise<Readable>;
}

// biome-ignore lint/suspicious/noExplicitAny: a registry holds definitions of every row type
export type AnyExportDefinition = ExportDefinition<any, any> | DocumentDefinition<any>;

export class ExportRegistry {
  private readonly definitions = new Map<string, AnyExportDefinition>();

  register<Query, Row>(definition: ExportDefinition<Query, Row>) {
    this.add(definition);
  }

  registerDocument<Query>(definition: DocumentDefinition<Query>) {
    this.add(definition);
  }

  private add(definition: AnyExportDefinition) {
    if (this.definitions.has(definition.list))
      throw new Error(`Export ${definition.list} is registered twice`);
    this.definitions.set(definition.list, definition);
  }

  get(list: string): AnyExportDefinition | undefined {
    return this.definitions.get(list);
  }

  names(): string[] {
    return [...this.definitions.keys()].sort();
  }
}
