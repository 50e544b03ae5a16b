import { OPENAPI_PATH } from '@obd/contract/constants';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeFetch, jsonResponse } from '../../test/fakeFetch.ts';
import { renderRoutes } from '../../test/renderRoutes.tsx';
import { ApiScreen, describe as describeSchema } from './ApiScreen.tsx';

const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'OBD Admin API', version: '1', description: 'Sign in with POST /api/login.' },
  paths: {
    '/api/ScanDetail': {
      get: {
        tags: ['Operations'],
        parameters: [
          { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
          { name: 'make', in: 'query', schema: { type: 'string', maxLength: 200 } },
        ],
        responses: {
          '200': {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { scans: { type: 'array', items: { type: 'object' } } },
                },
              },
            },
          },
        },
      },
    },
    '/api/login': {
      post: {
        tags: ['Sign-in and operators'],
        security: [],
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['email'],
                properties: { email: { type: 'string' }, password: { type: 'string' } },
              },
            },
          },
        },
        responses: { '200': { description: 'A session' } },
      },
    },
  },
};

afterEach(() => vi.unstubAllGlobals());

describe('API screen', () => {
  it('lists the operations by area and opens one to its parameters and answer', async () => {
    const calls = installFakeFetch(() => jsonResponse(DOCUMENT));
    renderRoutes([{ path: '/API', element: <ApiScreen /> }], '/API');
    expect(await screen.findByRole('heading', { name: 'Operations' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Sign-in and operators' })).toBeTruthy();
    expect(calls[0]?.url.pathname).toBe(OPENAPI_PATH);
    expect(screen.getByText('no sign-in')).toBeTruthy();

    fireEvent.click(screen.getByText('/api/ScanDetail'));
    const parameters = await screen.findByRole('table', { name: 'Parameters' });
    expect(within(parameters).getByText('make')).toBeTruthy();
    expect(within(parameters).getByText('string (≤ 200 characters)')).toBeTruthy();
    expect(screen.getByRole('table', { name: 'Answer 200' })).toBeTruthy();
  });

  it('narrows the list to the paths that contain the search', async () => {
    installFakeFetch(() => jsonResponse(DOCUMENT));
    renderRoutes([{ path: '/API', element: <ApiScreen /> }], '/API');
    await screen.findByText('/api/ScanDetail');
    fireEvent.change(screen.getByLabelText('Find an endpoint'), { target: { value: 'login' } });
    expect(screen.queryByText('/api/ScanDetail')).toBeNull();
    expect(screen.getByText('/api/login')).toBeTruthy();
  });

  it('says a schema in a few words', () => {
    expect(describeSchema({ type: 'integer', minimum: 1, maximum: 1000, default: 30 })).toBe(
      'integer 1–1000, default 30',
    );
    expect(describeSchema({ type: 'integer', minimum: 1, maximum: 9007199254740991, default: 1 })).toBe(
      'integer ≥ 1, default 1',
    );
    expect(describeSchema({ type: ['string', 'null'] })).toBe('string or null');
    expect(describeSchema({ enum: ['csv', 'xlsx'] })).toBe('one of csv, xlsx');
    expect(describeSchema({ type: 'array', items: { type: 'string' } })).toBe('array of string');
    expect(describeSchema({ type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 })).toBe(
      'integer',
    );
  });
});
