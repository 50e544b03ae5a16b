import { describe, expect, it } from 'vitest';
import { type ClientPaging, clientPage, parseClientView, writeClientView } from './clientPaging.ts';

interface Row {
  name: string;
}
const paging: ClientPaging<Row> = {
  fetchLimit: 1000,
  pageSizes: [10, 30, 50, 100],
  defaultPageSize: 100,
  search: { label: 'Search', matches: (row, text) => row.name.toLowerCase().includes(text) },
};
const rows = (count: number): Row[] => Array.from({ length: count }, (_, i) => ({ name: `Row ${i + 1}` }));

describe('client-side view in the address bar', () => {
  it('reads the page size and search text, falling back to the default size for junk', () => {
    expect(parseClientView(new URLSearchParams(''), paging)).toEqual({ pageSize: 100, text: '' });
    expect(parseClientView(new URLSearchParams('perPage=30&q=abc'), paging)).toEqual({
      pageSize: 30,
      text: 'abc',
    });
    expect(parseClientView(new URLSearchParams('perPage=31'), paging).pageSize).toBe(100);
    expect(parseClientView(new URLSearchParams('perPage=abc'), paging).pageSize).toBe(100);
  });

  it('writes only what differs from the defaults', () => {
    expect(
      writeClientView(new URLSearchParams('make=Honda'), { pageSize: 100, text: '  ' }, paging).toString(),
    ).toBe('make=Honda');
    expect(writeClientView(new URLSearchParams(), { pageSize: 10, text: 'AT' }, paging).toString()).toBe(
      'q=AT&perPage=10',
    );
  });
});

describe('clientPage', () => {
  it('slices the fetched rows into pages of the chosen size', () => {
    const page = clientPage(rows(25), 3, { pageSize: 10, text: '' }, paging.search);
    expect(page.total).toBe(25);
    expect(page.pages).toBe(3);
    expect(page.rows.map((row) => row.name)).toEqual(['Row 21', 'Row 22', 'Row 23', 'Row 24', 'Row 25']);
  });

  it('narrows to the rows matching the trimmed, case-insensitive search text before paging', () => {
    const page = clientPage(rows(25), 1, { pageSize: 10, text: '  ROW 2 ' }, paging.search);
    // Row 2 and Row 20–25.
    expect(page.total).toBe(7);
    expect(page.pages).toBe(1);
    expect(page.rows[0]?.name).toBe('Row 2');
  });

  it('has one (empty) page when nothing matches', () => {
    expect(clientPage(rows(5), 1, { pageSize: 10, text: 'zzz' }, paging.search)).toEqual({
      rows: [],
      total: 0,
      pages: 1,
    });
  });
});
