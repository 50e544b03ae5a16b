import type { CommandRow } from '@obd/contract';
import { ApiError, INVALID_RESPONSE, NETWORK_ERROR } from '../../lib/api.ts';

/** Setup commands (spec §9: prefix AT) configure the adapter; the rest ask the vehicle. */
export const SETUP_PREFIX = 'AT';

/** 'Setup' for a command starting with AT (any case, after leading spaces), else 'Diagnostic'. */
export function commandType(command: string): 'Setup' | 'Diagnostic' {
  return command.trimStart().toUpperCase().startsWith(SETUP_PREFIX) ? 'Setup' : 'Diagnostic';
}

/** 'Engine, ABS, ,HVAC ' → ['Engine', 'ABS', 'HVAC'] (spec §5: split on commas, trimmed, empty dropped). */
export function parseModules(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((module) => module.trim())
    .filter(Boolean);
}

/** The client-side 'Search Commands' filter: `text` (lower-cased) in the command or the module. */
export function commandMatches(row: CommandRow, text: string): boolean {
  return row.command.toLowerCase().includes(text) || row.module.toLowerCase().includes(text);
}

/** The command lookup's sentence for a failure (spec §8). */
export function describeCommandError(error: Error): string {
  if (error instanceof ApiError) {
    if (error.code === INVALID_RESPONSE) return 'Invalid response format';
    if (error.code === NETWORK_ERROR)
      return 'Cannot connect to server. Please check if the server is running.';
    if (error.status === 404) return 'API endpoint not found. Please check your server configuration.';
    if (error.status >= 400) return `Server error: ${error.status}`;
  }
  return 'An unknown error occurred';
}
