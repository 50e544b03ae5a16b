import type { FaultCauseRow, FaultCodeRow, FaultSolutionRow, FaultSymptomRow } from '@obd/contract';

/**
 * Rows of the fault-code tables → the contract's DTOs: the 0/1 generic flag becomes a boolean;
 * company ids stay numbers (0 = generic), whatever type the driver read them as.
 */

interface FaultRow {
  id: number;
  dtc: string;
  make: string | null;
  company_id: number;
  generic: number;
}

interface FaultTextRow extends FaultRow {
  language: string;
  text: string;
}

function toFaultBase(r: FaultRow) {
  return {
    id: r.id,
    dtc: r.dtc,
    make: r.make,
    company_id: Number(r.company_id),
    generic: r.generic === 1,
  };
}

export function toFaultCode(
  r: FaultRow & { title: string | null; severity: number | null; repair_difficulty: number | null },
): FaultCodeRow {
  return { ...toFaultBase(r), title: r.title, severity: r.severity, repair_difficulty: r.repair_difficulty };
}

export function toFaultCause(r: FaultTextRow): FaultCauseRow {
  return { ...toFaultBase(r), language: r.language, causes: r.text };
}

export function toFaultSymptom(r: FaultTextRow): FaultSymptomRow {
  return { ...toFaultBase(r), language: r.language, symptom: r.text };
}

export function toFaultSolution(r: FaultTextRow): FaultSolutionRow {
  return { ...toFaultBase(r), language: r.language, solution: r.text };
}
