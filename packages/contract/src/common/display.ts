/** Display values shared by the screens and the exports, so a download reads like the screen. */

const SEVERITY = ['Low', 'Medium', 'High'];
const DIFFICULTY = ['Easy', 'Medium', 'Hard'];

const scaleWord = (words: string[]) => (value: number | null | undefined) =>
  value === null || value === undefined ? '-' : (words[value - 1] ?? 'Unknown');

/** Severity 1–3 → Low / Medium / High; another number → Unknown; absent → '-' (spec §2.18). */
export const severityLabel = scaleWord(SEVERITY);
/** Repair difficulty 1–3 → Easy / Medium / Hard; another number → Unknown; absent → '-'. */
export const difficultyLabel = scaleWord(DIFFICULTY);

export const yesNo = (value: boolean | null | undefined) =>
  value === null || value === undefined ? '-' : value ? 'Yes' : 'No';
