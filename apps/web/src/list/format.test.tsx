import { isValidElement } from 'react';
import { describe, expect, it } from 'vitest';
import { cellContent, cellText, EMPTY_CELL, itemCount } from './format.ts';

describe('cellText', () => {
  it("shows '-' for null, undefined and the empty string", () => {
    expect(cellText(null)).toBe(EMPTY_CELL);
    expect(cellText(undefined)).toBe(EMPTY_CELL);
    expect(cellText('')).toBe('-');
  });

  it('shows 0 and other values as they are', () => {
    expect(cellText(0)).toBe('0');
    expect(cellText(42)).toBe('42');
    expect(cellText('P0300')).toBe('P0300');
    expect(cellText(' ')).toBe(' ');
  });

  it('shows booleans as Yes/No', () => {
    expect(cellText(true)).toBe('Yes');
    expect(cellText(false)).toBe('No');
  });
});

describe('cellContent', () => {
  it("replaces nothing-to-show with '-' and keeps rendered content", () => {
    expect(cellContent(null)).toBe('-');
    expect(cellContent(undefined)).toBe('-');
    expect(cellContent('')).toBe('-');
    expect(cellContent(0)).toBe(0);
    const badge = <span>Yes</span>;
    expect(isValidElement(cellContent(badge))).toBe(true);
  });
});

describe('itemCount', () => {
  it('counts items', () => {
    expect(itemCount(0)).toBe('0 items');
    expect(itemCount(1)).toBe('1 item');
    expect(itemCount(30)).toBe('30 items');
  });
});
