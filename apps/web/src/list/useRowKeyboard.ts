import { type RefObject, useEffect, useState } from 'react';

/** Typing in one of these must not move the highlight or jump to the filters. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT';
}

/**
 * A list in the hand (issue 12): ↓/j and ↑/k move a row highlight, Enter opens the highlighted row
 * (its first link: its details), `/` puts the cursor in the first filter. Not while typing in a
 * field, and not with a modifier key (the browser's own shortcuts stay). The highlight starts over
 * with each new page of rows.
 */
export function useRowKeyboard(
  rowCount: number,
  rowsKey: unknown,
  tableRef: RefObject<HTMLElement | null>,
  filtersRef: RefObject<HTMLElement | null>,
): number | undefined {
  const [highlighted, setHighlighted] = useState<number | undefined>(undefined);
  const [shownRows, setShownRows] = useState(rowsKey);
  if (shownRows !== rowsKey) {
    setShownRows(rowsKey);
    setHighlighted(undefined);
  }

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      if (isTypingTarget(event.target)) return;
      if (event.key === '/') {
        const first = filtersRef.current?.querySelector<HTMLElement>(
          'input:not([type=hidden]), select, textarea',
        );
        if (first) {
          event.preventDefault();
          first.focus();
        }
        return;
      }
      if (rowCount === 0) return;
      const down = event.key === 'ArrowDown' || event.key === 'j';
      const up = event.key === 'ArrowUp' || event.key === 'k';
      if (down || up) {
        event.preventDefault();
        setHighlighted((current) => {
          if (current === undefined) return down ? 0 : rowCount - 1;
          return Math.min(rowCount - 1, Math.max(0, current + (down ? 1 : -1)));
        });
        return;
      }
      if (event.key === 'Enter' && highlighted !== undefined) {
        // A focused button or link answers Enter itself.
        if (event.target instanceof HTMLElement && event.target.closest('a, button')) return;
        const row = tableRef.current?.querySelector(`[data-row-index="${highlighted}"]`);
        // Its details: a link in the page first (a report opening in a new tab is not "open this row").
        const link =
          row?.querySelector<HTMLElement>('a[href]:not([target="_blank"])') ??
          row?.querySelector<HTMLElement>('a[href]');
        if (link) {
          event.preventDefault();
          link.click();
        }
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [rowCount, highlighted, tableRef, filtersRef]);

  useEffect(() => {
    if (highlighted === undefined) return;
    const row = tableRef.current?.querySelector(`[data-row-index="${highlighted}"]`);
    row?.scrollIntoView?.({ block: 'nearest' });
  }, [highlighted, tableRef]);

  return highlighted;
}
