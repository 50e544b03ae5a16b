import { describe, expect, it, vi } from 'vitest';
import { detailHref, readableHeader } from './columns.tsx';
import type { FilterField, LoadedSelectFilterField } from './declaration.ts';
import { parseRecordId } from './detail.ts';
import { loadedSelectOptions } from './FilterFields.tsx';
import { dateTimeText, durationText } from './format.ts';
import {
  filterParams,
  isIsoDate,
  listHref,
  parseListState,
  search,
  serialiseListState,
} from './listState.ts';

const period: FilterField = {
  kind: 'dateRange',
  label: 'Scan period',
  from: { name: 'scan_start_time', label: 'From' },
  to: { name: 'scan_end_time', label: 'To' },
};
const plan: LoadedSelectFilterField = {
  kind: 'loadedSelect',
  name: 'plan',
  label: 'Plan',
  source: {
    endpoint: '/api/users/facets',
    reader: async () => (payload) => payload,
    select: (payload) => (payload as { plans: string[] }).plans,
  },
};
const fields: readonly FilterField[] = [{ kind: 'text', name: 'make', label: 'Make' }, period, plan];

describe('date-range filter', () => {
  it('stands for two query parameters', () => {
    expect(filterParams(period)).toEqual(['scan_start_time', 'scan_end_time']);
  });

  it('keeps real ISO dates and drops anything else', () => {
    expect(isIsoDate('2025-03-01')).toBe(true);
    expect(isIsoDate('2024-02-29')).toBe(true);
    for (const junk of ['2025-02-30', '2025-13-01', '01/03/2025', '2025-3-1', '2025-03-01T00:00:00Z', 'x'])
      expect(isIsoDate(junk)).toBe(false);
    expect(search(fields, { scan_start_time: ' 2025-03-01 ', scan_end_time: '2025-02-30' }).filters).toEqual({
      scan_start_time: '2025-03-01',
    });
  });

  it('round-trips through the address bar, in declared order', () => {
    const state = {
      page: 3,
      filters: { scan_end_time: '2025-06-30', make: 'Honda', scan_start_time: '2025-01-01' },
    };
    const params = serialiseListState(state, fields);
    expect(params.toString()).toBe('make=Honda&scan_start_time=2025-01-01&scan_end_time=2025-06-30&page=3');
    expect(parseListState(params, fields)).toEqual(state);
    expect(parseListState(new URLSearchParams('scan_end_time=yesterday'), fields).filters).toEqual({});
  });
});

describe('select with loaded choices', () => {
  it('accepts any value from the address (the choices may not have arrived)', () => {
    expect(parseListState(new URLSearchParams('plan=pro'), fields).filters).toEqual({ plan: 'pro' });
  });

  it("offers 'All', then the loaded choices", () => {
    expect(loadedSelectOptions(plan, { plans: ['free', 'pro'] }, '')).toEqual([
      { value: '', label: 'All' },
      { value: 'free', label: 'free' },
      { value: 'pro', label: 'pro' },
    ]);
  });

  it('keeps the searched value as a choice while the choices load or when they lack it', () => {
    expect(loadedSelectOptions(plan, undefined, 'fleet').map((option) => option.value)).toEqual([
      '',
      'fleet',
    ]);
    expect(loadedSelectOptions({ ...plan, allLabel: 'Any plan' }, { plans: ['free'] }, 'fleet')).toEqual([
      { value: '', label: 'Any plan' },
      { value: 'free', label: 'free' },
      { value: 'fleet', label: 'fleet' },
    ]);
  });

  it("offers only 'All' and the value when the answer is malformed", () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(loadedSelectOptions(plan, { nothing: true }, '').map((option) => option.value)).toEqual(['']);
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
  });
});

describe('listHref', () => {
  const faultFields: readonly FilterField[] = [
    { kind: 'text', name: 'dtc', label: 'DTC Code' },
    { kind: 'text', name: 'make', label: 'Make' },
  ];

  it('writes the address a list writes for that search', () => {
    expect(listHref('/FaultCodeList', faultFields, { dtc: 'P0300' })).toBe('/FaultCodeList?dtc=P0300');
    expect(listHref('/FaultCodeList', faultFields, { make: 'Land Rover', dtc: ' U0100 ' })).toBe(
      '/FaultCodeList?dtc=U0100&make=Land+Rover',
    );
    expect(listHref('/FaultCodeList', faultFields, { dtc: ' ' })).toBe('/FaultCodeList');
  });
});

describe('record ids', () => {
  const id = (search: string) => parseRecordId(new URLSearchParams(search));

  it('reads a whole number of 1 or more', () => {
    expect(id('id=7')).toBe(7);
    expect(id('id=%207%20')).toBe(7);
  });

  it.each(['', 'id=', 'id=0', 'id=-1', 'id=abc', 'id=2.5', 'id=1e3', 'id=9999999999999999'])(
    'has no id for %s',
    (search) => {
      expect(id(search)).toBeUndefined();
    },
  );

  it('writes the detail address', () => {
    expect(detailHref('/ObdScanReport/details', 42)).toBe('/ObdScanReport/details?id=42');
  });
});

describe('display helpers', () => {
  it('turns field names into headers', () => {
    expect(readableHeader('last_login_at')).toBe('Last Login At');
    expect(readableHeader('id')).toBe('ID');
    expect(readableHeader('app_version')).toBe('App Version');
    expect(readableHeader('vin')).toBe('VIN');
    expect(readableHeader('subscriptionEndsAt')).toBe('Subscription Ends At');
  });

  it('shows stored times without the T and the Z', () => {
    expect(dateTimeText('2025-03-04T09:15:07.123Z')).toBe('2025-03-04 09:15:07');
    expect(dateTimeText('2025-03-04T09:15:07Z')).toBe('2025-03-04 09:15:07');
    expect(dateTimeText(null)).toBe('-');
    expect(dateTimeText('not a time')).toBe('not a time');
    expect(dateTimeText(true)).toBe('Yes');
  });

  it('measures durations', () => {
    expect(durationText('2025-03-04T09:15:00Z', '2025-03-04T09:15:40Z')).toBe('40 s');
    expect(durationText('2025-03-04T09:15:00Z', '2025-03-04T09:27:05Z')).toBe('12 min 5 s');
    expect(durationText('2025-03-04T09:15:00Z', '2025-03-04T10:17:00Z')).toBe('1 h 2 min');
    expect(durationText('2025-03-04T09:15:00Z', null)).toBe('-');
    expect(durationText('2025-03-04T09:15:00Z', '2025-03-04T09:14:00Z')).toBe('-');
  });
});
