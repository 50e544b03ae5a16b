import { createHash, randomBytes } from 'node:crypto';

/** A bearer token or one-time code: 256 random bits, URL-safe. Only its hash is stored. */
export const newToken = () => randomBytes(32).toString('base64url');

/** Shorter code for invitations, typed by a person: 80 random bits in groups. */
export const newInvitationCode = () =>
  randomBytes(10).toString('hex').toUpperCase().match(/.{5}/g)?.join('-') ?? '';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
