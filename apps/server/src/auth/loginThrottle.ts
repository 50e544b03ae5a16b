import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface ThrottleLimits {
  windowMs: number;
  /** Failures of one account within the window before its sign-ins are refused. */
  perAccount: number;
  /** Failures from one client address within the window before its sign-ins are refused. */
  perAddress: number;
}

const DEFAULT_LIMITS: ThrottleLimits = { windowMs: 15 * 60 * 1000, perAccount: 5, perAddress: 20 };

/**
 * Counts failed sign-ins per account and per client address in a sliding window. The failures
 * live in the database, like sessions: every server process sharing it counts the same attempts
 * (so running several servers does not multiply an attacker's guesses), a restart forgets
 * nothing, and rows older than the window are deleted as new failures arrive, so the table stays
 * as small as the attempts of the last window.
 */
export class LoginThrottle {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly limits: ThrottleLimits = DEFAULT_LIMITS,
  ) {}

  /** Seconds until another attempt is allowed, or 0 when it is allowed now. */
  async retryAfter(email: string, address: string): Promise<number> {
    const now = Date.now();
    const counts = await this.db
      .selectFrom('login_failures')
      .select(['subject', (eb) => eb.fn.countAll<number | string>().as('failures')])
      .select((eb) => eb.fn.min('failed_at').as('oldest'))
      .where('subject', 'in', [accountKey(email), addressKey(address)])
      .where('failed_at', '>', this.windowStart(now))
      .groupBy('subject')
      .execute();
    let wait = 0;
    for (const { subject, failures, oldest } of counts) {
      const max = subject.startsWith('e:') ? this.limits.perAccount : this.limits.perAddress;
      if (Number(failures) < max || !oldest) continue;
      const freeAt = Date.parse(oldest) + this.limits.windowMs;
      wait = Math.max(wait, Math.ceil((freeAt - now) / 1000));
    }
    return wait;
  }

  async fail(email: string, address: string): Promise<void> {
    const now = Date.now();
    const failedAt = new Date(now).toISOString();
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('login_failures').where('failed_at', '<=', this.windowStart(now)).execute();
      await trx
        .insertInto('login_failures')
        .values([
          { subject: accountKey(email), failed_at: failedAt },
          { subject: addressKey(address), failed_at: failedAt },
        ])
        .execute();
    });
  }

  /** A successful sign-in clears the account's failures; the address keeps its count. */
  async succeed(email: string): Promise<void> {
    await this.db.deleteFrom('login_failures').where('subject', '=', accountKey(email)).execute();
  }

  private windowStart(now: number): string {
    return new Date(now - this.limits.windowMs).toISOString();
  }
}

const accountKey = (email: string) => `e:${email}`;
const addressKey = (address: string) => `a:${address}`;
