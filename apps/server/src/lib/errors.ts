import { ERROR_STATUS, type ErrorCode } from '@obd/contract';

/** An error whose message is safe and useful to show to the person who made the request. */
export class HttpError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

export const badRequest = (message: string) => new HttpError('BAD_REQUEST', message);
export const unauthorized = (message = 'Sign in to continue.') => new HttpError('UNAUTHORIZED', message);
export const forbidden = (message: string) => new HttpError('FORBIDDEN', message);
export const notFound = (message: string) => new HttpError('NOT_FOUND', message);
