import { UPLOAD_MESSAGES } from './messages.ts';

/** What a page accepts before anything is sent (spec §5); the server checks again by content. */
export interface FileRule {
  /** Lower-case extensions with the dot, e.g. `['.xlsx', '.xls']`. */
  extensions: readonly string[];
  /** The sentence for any other extension. */
  typeMessage: string;
  /** Enforced in the browser only where the spec says so (the Excel Importer's 50MB is only stated). */
  maxBytes?: number;
  sizeMessage?: string;
}

/** The extension of a file name, lower case with its dot ('' when it has none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot).toLowerCase();
}

/** Why `file` cannot be uploaded under `rule`, or undefined when it can. */
export function fileProblem(file: Pick<File, 'name' | 'size'>, rule: FileRule): string | undefined {
  if (!rule.extensions.includes(extensionOf(file.name))) return rule.typeMessage;
  if (rule.maxBytes !== undefined && file.size >= rule.maxBytes) return rule.sizeMessage;
  return undefined;
}

/** Why the form cannot be sent yet: no file, then a required choice left empty. */
export function submitProblem(
  file: File | null,
  choice?: { value: string; requiredMessage: string },
): string | undefined {
  if (!file) return UPLOAD_MESSAGES.noFile;
  if (choice && !choice.value.trim()) return choice.requiredMessage;
  return undefined;
}
