/**
 * Rows of the operations tables → the contract's DTOs. Flags are stored as 0/1 and answered as
 * booleans; result arrays are stored as JSON text and answered as objects of the contract's
 * fields only (whatever else the app stored in them stays out).
 */

const bool = (v: number) => v === 1;

/** Text or null, whatever the stored JSON held there. */
const text = (v: unknown) => (v === null || v === undefined ? null : String(v));

/** Result arrays are JSON text; a malformed one shows as empty rather than failing the page. */
function jsonArray(json: string): Record<string, unknown>[] {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
  } catch {
    return [];
  }
}

/** `R` with its 0/1 flags `K` as booleans (a spread of a type parameter would intersect them). */
type WithFlags<R, K extends keyof R> = Omit<R, K> & Record<K, boolean>;

export function toScan<R extends { scan_ended: number }>(row: R): WithFlags<R, 'scan_ended'> {
  return { ...row, scan_ended: bool(row.scan_ended) };
}

export function toSpecialFunctionRun<R extends { scan_ended: number; hard_coded: number }>(
  row: R,
): WithFlags<R, 'scan_ended' | 'hard_coded'> {
  return { ...row, scan_ended: bool(row.scan_ended), hard_coded: bool(row.hard_coded) };
}

/** One step of a special-function or actuation run's results. */
function toRunResult(r: Record<string, unknown>) {
  return { data: text(r.data), pid: text(r.pid), input: text(r.input) };
}

/** A scan with its raw and decoded results (the detail screen and the PDF report). */
export function toScanDetail<R extends { scan_ended: number; scan_res_array: string; decoded_array: string }>(
  row: R,
) {
  const { scan_res_array, decoded_array, ...scan } = row;
  return {
    ...toScan(scan),
    scanResArray: jsonArray(scan_res_array).map((x) => ({
      system: text(x.system),
      pid: text(x.pid),
      data: text(x.data),
      header: text(x.header),
      protocol: text(x.protocol),
      make: text(x.make),
    })),
    decodedArray: jsonArray(decoded_array).map((x) => ({
      system: text(x.system),
      pid: text(x.pid),
      data: text(x.data),
      protocol: text(x.protocol),
      header: text(x.header),
      decodedFaultArray: Object.fromEntries(
        Object.entries((x.decodedFaultArray as Record<string, unknown>) ?? {}).map(([k, v]) => [
          k,
          String(v),
        ]),
      ),
    })),
  };
}

export function toSpecialFunctionDetail<
  R extends { scan_ended: number; hard_coded: number; scan_res_array: string },
>(row: R) {
  const { scan_res_array, ...run } = row;
  return { ...toSpecialFunctionRun(run), scanResArray: jsonArray(scan_res_array).map(toRunResult) };
}

export function toActuationDetail<R extends { scan_res_array: string }>(row: R) {
  const { scan_res_array, ...run } = row;
  return { ...run, scanResArray: jsonArray(scan_res_array).map(toRunResult) };
}
