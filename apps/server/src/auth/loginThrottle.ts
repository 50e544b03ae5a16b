import type { FastifyReply } from 'fastify';
import type { Db } from '../db/database.ts';
import { HttpError } from '../lib/errors.ts';
import { serialised } from './serialised.ts';

export interface ThrottleLimits {
  windowMs: number;
  /** Failures of one account from one client address within the window before that address is refused for it. */
  perPair: number;
  /** Failures from one client address, whatever the account, within the window before it is refused. */
  perAddress: number;
  /** Failures of one account, from any address, within the window before its checks are spaced out… */
  accountSlowAfter: number;
  /** …to at most one every this many milliseconds, from any address. */
  accountSpacingMs: number;
}

export const DEFAULT_LIMITS: ThrottleLimits = {
  windowMs: 15 * 60 * 1000,
  perPair: 5,
  perAddress: 20,
  accountSlowAfter: 10,
  accountSpacingMs: 2000,
};

/** Admitted: check the password, then call `succeeded` or leave the attempt counted as a failure. */
export type Reservation =
  | { admitted: true; attempt: number }
  | { admitted: false; retryAfterSeconds: number };

/**
 * Counts sign-in (and sign-up) attempts per account, per client address and per pair of them, in
 * a sliding window. An attempt is written — reserved — before its password is checked, in a
 * section no other reservation for the same account or address runs in, in any process sharing
 * the database (`serialised`): thirty simultaneous guesses get five checks, not eleven. It stays
 * as a failure unless the password was right.
 *
 * The refusals are shaped so that an anonymous party cannot lock an operator out: guessing from
 * one address refuses that address for that account (and, past a larger count, for every
 * account); the account itself is only slowed, to one check every couple of seconds once many
 * addresses have failed on it, so the right password from the operator's own address still gets
 * in. Behind a reverse proxy the address is the client's only when `TRUST_PROXY` names the proxy.
 */
export class LoginThrottle {
  constructor(
    private readonly db: Db,
    private readonly limits: ThrottleLimits = DEFAULT_LIMITS,
  ) {}

  async reserve(email: string, clientAddress: string): Promise<Reservation> {
    const address = throttledAddress(clientAddress);
    return serialised(this.db, [`login-account:${email}`, `login-address:${address}`], async (trx) => {
      const now = Date.now();
      const windowStart = new Date(now - this.limits.windowMs).toISOString();
      // Rows older than the window count for nothing. Only this pair's are deleted here: every
      // reservation touching them holds both of this section's locks, so two reservations never
      // wait for each other's rows (a deadlock on PostgreSQL). The rest go with the hourly
      // housekeeping; the counts below read the window only.
      await trx
        .deleteFrom('login_attempts')
        .where('email', '=', email)
        .where('address', '=', address)
        .where('attempted_at', '<=', windowStart)
        .execute();
      const rows = await trx
        .selectFrom('login_attempts')
        .select(['email', 'address', 'attempted_at'])
        .where('attempted_at', '>', windowStart)
        .where((eb) => eb.or([eb('email', '=', email), eb('address', '=', address)]))
        .orderBy('attempted_at')
        .execute();
      const pair = rows.filter((r) => r.email === email && r.address === address);
      const fromAddress = rows.filter((r) => r.address === address);
      const ofAccount = rows.filter((r) => r.email === email);
      let freeAt = 0;
      const windowAfter = (oldest: { attempted_at: string } | undefined) =>
        oldest ? Date.parse(oldest.attempted_at) + this.limits.windowMs : 0;
      if (pair.length >= this.limits.perPair)
        freeAt = Math.max(freeAt, windowAfter(pair.at(-this.limits.perPair)));
      if (fromAddress.length >= this.limits.perAddress)
        freeAt = Math.max(freeAt, windowAfter(fromAddress.at(-this.limits.perAddress)));
      const latest = ofAccount.at(-1);
      if (ofAccount.length >= this.limits.accountSlowAfter && latest)
        freeAt = Math.max(freeAt, Date.parse(latest.attempted_at) + this.limits.accountSpacingMs);
      if (freeAt > now) return { admitted: false, retryAfterSeconds: Math.ceil((freeAt - now) / 1000) };
      const { id } = await trx
        .insertInto('login_attempts')
        .values({ email, address, attempted_at: new Date(now).toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { admitted: true, attempt: id };
    });
  }

  /**
   * Reserves an attempt for `email` from this client and answers its id, or refuses with 429 and
   * a retry-after saying how long to wait (the routes that check a password share this).
   */
  async admit(email: string, clientAddress: string, reply: FastifyReply): Promise<number> {
    const reservation = await this.reserve(email, clientAddress);
    if (!reservation.admitted) {
      reply.header('retry-after', String(reservation.retryAfterSeconds));
      throw new HttpError('RATE_LIMITED', retryMessage(reservation.retryAfterSeconds));
    }
    return reservation.attempt;
  }

  /**
   * The password was right: the attempt was no failure, and this address's earlier failures on
   * this account are forgiven. Failures from other addresses stay counted.
   */
  async succeeded(email: string, clientAddress: string, attempt: number): Promise<void> {
    const address = throttledAddress(clientAddress);
    await this.db.kysely
      .deleteFrom('login_attempts')
      .where((eb) =>
        eb.or([eb('id', '=', attempt), eb.and([eb('email', '=', email), eb('address', '=', address)])]),
      )
      .execute();
  }
}

/** The sentence of a refused attempt: how long to wait, in words a person can act on. */
export function retryMessage(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  const wait =
    seconds < 60
      ? `${seconds} second${seconds === 1 ? '' : 's'}`
      : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `Too many failed sign-in attempts. Try again in ${wait}.`;
}

/**
 * The address the throttle counts for a client: an IPv4 address as it is (also when written as
 * IPv6, `::ffff:192.0.2.1`); an IPv6 address by its /64 network, which one client usually holds
 * whole — counting single IPv6 addresses would give it 2^64 fresh budgets.
 */
export function throttledAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (!address.includes(':')) return address;
  const [head = '', tail] = address.split('%')[0]?.toLowerCase().split('::') ?? [];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
