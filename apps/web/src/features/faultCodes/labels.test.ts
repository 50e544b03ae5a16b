import { describe, expect, it } from 'vitest';
import { repairDifficultyLabel, severityLabel } from './format.ts';

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

describe('repairDifficultyLabel', () => {
  it('names the 1–3 scale', () => {
    expect([1, 2, 3].map(repairDifficultyLabel)).toEqual(['Easy', 'Medium', 'Hard']);
  });

  it("shows 'Unknown' for any other number and '-' when absent", () => {
    expect(repairDifficultyLabel(4)).toBe('Unknown');
    expect(repairDifficultyLabel(0)).toBe('Unknown');
    expect(repairDifficultyLabel(null)).toBe('-');
  });
});
