// The display labels live in the contract, shared by the screens and the exports.

import { difficultyLabel, severityLabel } from '@obd/contract/constants';
import { describe, expect, it } from 'vitest';

describe('severityLabel', () => {
  it('names the 1–3 scale', () => {
    expect([1, 2, 3].map(severityLabel)).toEqual(['Low', 'Medium', 'High']);
  });

  it("shows 'Unknown' for any other number (imports accept up to 5)", () => {
    expect([0, 4, 5, -1, 1.5].map(severityLabel)).toEqual([
      'Unknown',
      'Unknown',
      'Unknown',
      'Unknown',
      'Unknown',
    ]);
  });

  it("shows '-' when absent", () => {
    expect(severityLabel(null)).toBe('-');
    expect(severityLabel(undefined)).toBe('-');
  });
});

describe('difficultyLabel', () => {
  it('names the 1–3 scale', () => {
    expect([1, 2, 3].map(difficultyLabel)).toEqual(['Easy', 'Medium', 'Hard']);
  });

  it("shows 'Unknown' for any other number and '-' when absent", () => {
    expect(difficultyLabel(4)).toBe('Unknown');
    expect(difficultyLabel(0)).toBe('Unknown');
    expect(difficultyLabel(null)).toBe('-');
  });
});
