import { EMPTY_CELL } from '../../list/format.ts';

// The display scales are 1–3 (spec §9) although imports accept 1–5: 4 and 5 show 'Unknown'.
const SEVERITY_WORDS = ['Low', 'Medium', 'High'] as const;
const REPAIR_DIFFICULTY_WORDS = ['Easy', 'Medium', 'Hard'] as const;

/** Severity 1/2/3 → Low/Medium/High; any other number 'Unknown'; absent '-'. */
export function severityLabel(severity: number | null | undefined): string {
  return scaleWord(SEVERITY_WORDS, severity);
}

/** Repair difficulty 1/2/3 → Easy/Medium/Hard; any other number 'Unknown'; absent '-'. */
export function repairDifficultyLabel(difficulty: number | null | undefined): string {
  return scaleWord(REPAIR_DIFFICULTY_WORDS, difficulty);
}

function scaleWord(words: readonly string[], value: number | null | undefined): string {
  if (value === null || value === undefined) return EMPTY_CELL;
  return (Number.isInteger(value) && value >= 1 && words[value - 1]) || 'Unknown';
}
