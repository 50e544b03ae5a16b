import type { ActuationDetail, SpfCommand } from '@obd/contract';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * The step lists of the actuation and SPF catalogues, parsed once per distinct stored text.
 *
 * Why: their answers are objects checked by the contract's schemas; parsing the stored `details`
 * arrays on every request (unfiltered ActuationCommands: ~100 distinct lists, 94 KB) cost about
 * 1 ms of a ~4 ms request, and looking them up by their text (hashing 94 KB) 0.3 ms
 * (bench/RESULTS.md, session 4). So a list is found by the id of the first row that holds it and
 * used only if its text is still the same (one string comparison): an import that changes the
 * list makes a new entry, never a stale answer. Bounded by the total length of the texts kept,
 * oldest dropped first.
 */
class StepListMemo<T> {
  private readonly entries = new Map<number, { text: string; value: T }>();
  private chars = 0;

  constructor(private readonly maxChars: number) {}

  get(rowId: number, text: string, parse: (text: string) => T): T {
    const kept = this.entries.get(rowId);
    if (kept?.text === text) return kept.value;
    const value = parse(text);
    if (kept) {
      this.entries.delete(rowId);
      this.chars -= kept.text.length;
    }
    if (text.length <= this.maxChars) {
      this.entries.set(rowId, { text, value });
      this.chars += text.length;
      for (const [id, entry] of this.entries) {
        if (this.chars <= this.maxChars) break;
        this.entries.delete(id);
        this.chars -= entry.text.length;
      }
    }
    return value;
  }
}

/** A stored JSON array; a malformed one shows as empty rather than failing the page. */
function jsonArray<T>(text: string): Partial<T>[] {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? (value as Partial<T>[]) : [];
  } catch {
    return [];
  }
}

type StoredActuationDetail = Omit<ActuationDetail, 'message_item'> & { message_item: unknown };
type SpfDetail = SpfCommand['details'][number];

const actuationLists = new StepListMemo<readonly ActuationDetail[]>(2_000_000);
const spfLists = new StepListMemo<readonly SpfDetail[]>(2_000_000);

/**
 * A stored actuation step list, read from the row `rowId`, → the contract's details (shared:
 * callers must not change them).
 */
export function actuationSteps(rowId: number, text: string): readonly ActuationDetail[] {
  return actuationLists.get(rowId, text, (json) =>
    jsonArray<StoredActuationDetail>(json).map((d) => ({
      pid: d.pid ?? null,
      actuation_subtype: d.actuation_subtype ?? null,
      last_subtype: d.last_subtype ?? null,
      seed_key_variant: d.seed_key_variant ?? null,
      message: d.message ?? null,
      message_item: d.message_item === true || d.message_item === 1 || d.message_item === 'true',
      success_check: d.success_check ?? null,
    })),
  );
}

/** A stored SPF step list, read from the row `rowId`, → the contract's details (shared, like those). */
export function spfSteps(rowId: number, text: string): readonly SpfDetail[] {
  return spfLists.get(rowId, text, (json) =>
    jsonArray<SpfDetail>(json).map((d) => ({
      pid: d.pid ?? null,
      message: d.message ?? null,
      command_type: d.command_type ?? null,
    })),
  );
}

/** The JSON text of each memoised step, written once (kept while the step is). */
const stepTexts = new WeakMap<object, string>();

function stepJson(step: object): string {
  let text = stepTexts.get(step);
  if (text === undefined) {
    text = JSON.stringify(step);
    stepTexts.set(step, text);
  }
  return text;
}

interface GroupedAnswer {
  data: readonly ({ details: readonly object[] } & Record<string, unknown>)[];
  total: number;
}

/**
 * The serialiser of the ActuationCommands and SPFCommands answers (route option
 * `serializerCompiler`). It checks the answer against the route's contract schema, as every
 * route's serialiser does, then writes it as JSON.stringify would, except that each step's text
 * is written once per memoised step: stringifying the 94 KB unfiltered ActuationCommands answer
 * took ~0.6 ms of a ~4.5 ms request (bench/RESULTS.md, session 4). Each group's `details` is its
 * last field, as in the contract.
 */
export const groupedAnswerSerializer =
  ({ schema, method, url }: { schema: unknown; method: string; url: string }) =>
  (data: GroupedAnswer): string => {
    // Fastify hands a route's serialiser the response schema of the status being answered.
    const checked = z.safeEncode(schema as z.ZodType, data);
    if (checked.error) throw new ResponseSerializationError(method, url, { cause: checked.error });
    if (!Array.isArray(data.data)) return JSON.stringify(checked.data);
    const groups = data.data.map(({ details, ...group }) => {
      const head = JSON.stringify(group);
      const steps = `"details":[${details.map(stepJson).join(',')}]}`;
      return head === '{}' ? `{${steps}` : `${head.slice(0, -1)},${steps}`;
    });
    return `{"data":[${groups.join(',')}],"total":${JSON.stringify(data.total)}}`;
  };
