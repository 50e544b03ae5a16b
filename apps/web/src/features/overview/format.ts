/** Figures of the Overview written the British way (12,345). */
const NUMBER = new Intl.NumberFormat('en-GB');
export const count = (n: number) => NUMBER.format(n);

/** A day's axis tick: '2026-06-03' → '06-03'. */
export const shortDay = (day: string) => day.slice(5);

/** A bar's row from recharts' click (its `payload`). */
export function rowOf<T>(bar: { payload?: unknown }): T {
  return bar.payload as T;
}
