import { describe, expect, it } from 'vitest';
import { ApiError, INVALID_RESPONSE, NETWORK_ERROR } from '../../lib/api.ts';
import { commandMatches, commandType, describeCommandError, parseModules } from './commands.ts';

describe('commandType', () => {
  it("is 'Setup' for AT commands and 'Diagnostic' for the rest", () => {
    expect(commandType('ATZ')).toBe('Setup');
    expect(commandType('atsp6')).toBe('Setup');
    expect(commandType(' AT H1')).toBe('Setup');
    expect(commandType('010C')).toBe('Diagnostic');
    expect(commandType('22F190')).toBe('Diagnostic');
    expect(commandType('0A')).toBe('Diagnostic');
    expect(commandType('')).toBe('Diagnostic');
  });
});

describe('parseModules', () => {
  it('splits on commas, trims and drops empty names', () => {
    expect(parseModules('Engine, ABS')).toEqual(['Engine', 'ABS']);
    expect(parseModules(' Engine ,, ABS , HVAC ,')).toEqual(['Engine', 'ABS', 'HVAC']);
    expect(parseModules('Instrument Cluster')).toEqual(['Instrument Cluster']);
    expect(parseModules(' , ')).toEqual([]);
    expect(parseModules(undefined)).toEqual([]);
  });
});

describe('commandMatches', () => {
  it('matches the lower-cased text in the command or the module', () => {
    const row = { command: 'ATSP6', module: 'Engine' };
    expect(commandMatches(row, 'atsp')).toBe(true);
    expect(commandMatches(row, 'engine')).toBe(true);
    expect(commandMatches(row, 'abs')).toBe(false);
  });
});

describe('describeCommandError', () => {
  it('gives the sentence of spec §8 for each failure', () => {
    expect(describeCommandError(new ApiError(404, 'x', 'NOT_FOUND'))).toBe(
      'API endpoint not found. Please check your server configuration.',
    );
    expect(describeCommandError(new ApiError(500, 'x', 'INTERNAL'))).toBe('Server error: 500');
    expect(describeCommandError(new ApiError(400, 'x', 'BAD_REQUEST'))).toBe('Server error: 400');
    expect(describeCommandError(new ApiError(200, 'x', INVALID_RESPONSE))).toBe('Invalid response format');
    expect(describeCommandError(new ApiError(0, 'x', NETWORK_ERROR))).toBe(
      'Cannot connect to server. Please check if the server is running.',
    );
    expect(describeCommandError(new Error('boom'))).toBe('An unknown error occurred');
  });
});
