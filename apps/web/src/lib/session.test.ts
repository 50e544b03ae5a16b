import { describe, expect, it } from 'vitest';
import { HOME_PATH, loginPath, nextPathAfterSignIn } from './session.ts';

describe('loginPath', () => {
  it('remembers the page, query included', () => {
    expect(loginPath('/FaultCodeList?page=2')).toBe('/login?next=/FaultCodeList%3Fpage%3D2');
    expect(loginPath('/FaultCodeList?make=Land Rover&page=2')).toBe(
      '/login?next=/FaultCodeList%3Fmake%3DLand%20Rover%26page%3D2',
    );
  });

  it('round-trips through the address bar', () => {
    const next = '/FaultCodeList?dtc=P0&generic=true&page=3';
    const search = new URL(loginPath(next), 'http://localhost').searchParams;
    expect(search.get('next')).toBe(next);
  });

  it('remembers nothing for the sign-in pages themselves', () => {
    expect(loginPath('/login?next=/x')).toBe('/login');
    expect(loginPath('/')).toBe('/login');
    expect(loginPath()).toBe('/login');
  });
});

describe('nextPathAfterSignIn', () => {
  it('returns to our own page', () => {
    expect(nextPathAfterSignIn('/FaultCodeList?page=2')).toBe('/FaultCodeList?page=2');
  });

  it('goes to the Users Table otherwise', () => {
    expect(nextPathAfterSignIn(null)).toBe(HOME_PATH);
    expect(nextPathAfterSignIn('')).toBe(HOME_PATH);
    expect(nextPathAfterSignIn('/signup')).toBe(HOME_PATH);
  });

  it('never leaves the site', () => {
    for (const next of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
    ]) {
      expect(nextPathAfterSignIn(next)).toBe(HOME_PATH);
    }
  });
});
