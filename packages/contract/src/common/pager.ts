/** Total number of pages for a result of `total` rows (at least 1, so "Page 1 of 1" when empty). */
export function totalPages(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/**
 * The numbered buttons of a pager: every page when there are `size` or fewer, otherwise `size`
 * consecutive pages centred on the current one and clamped to the first and last page.
 */
export function pageWindow(current: number, pages: number, size = 5): number[] {
  if (pages <= size) return Array.from({ length: pages }, (_, i) => i + 1);
  const half = Math.floor(size / 2);
  const start = Math.min(Math.max(1, current - half), pages - size + 1);
  return Array.from({ length: size }, (_, i) => start + i);
}
