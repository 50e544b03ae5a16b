import { insertAll, type Row, type SeedContext } from './insert.ts';
import { NAMES, type NameTradition } from './lists.ts';
import { BASE_DATE_MS, DAY_MS, iso, type Rng, rng, WeightedList } from './random.ts';

/**
 * The scanner app's customers (app_users) and their subscriptions, plus the per-country details
 * (phone numbers, licence plates, VINs) that the generated activity reuses.
 */

export interface Country {
  code: string;
  /** The scans' `country_id`: the international dialling code. */
  id: number;
  weight: number;
  names: readonly NameTradition[];
  domains: readonly string[];
  phone: (r: Rng) => string;
  plate: (r: Rng) => string;
}

const LETTERS = 'ABCDEFGHJKLMNPRSTUVWXYZ';
const IN_STATES = ['MH', 'KA', 'DL', 'TN', 'GJ', 'UP', 'TS', 'KL', 'RJ', 'WB', 'HR', 'PB', 'MP', 'AP'];
const DE_CITIES = ['B', 'M', 'HH', 'K', 'F', 'S', 'D', 'HB', 'N', 'DO'];
const AE_EMIRATES = ['Dubai', 'Abu Dhabi', 'Sharjah'];

export const COUNTRIES: readonly Country[] = [
  {
    code: 'IN',
    id: 91,
    weight: 55,
    names: ['indian'],
    domains: ['gmail.com', 'gmail.com', 'yahoo.co.in', 'rediffmail.com', 'outlook.com'],
    phone: (r) => `+91 ${r.int(6, 9)}${r.digits(4)} ${r.digits(5)}`,
    // 'MH 12 AB 1234': state, district, series, number.
    plate: (r) =>
      `${r.pick(IN_STATES)} ${String(r.int(1, 50)).padStart(2, '0')} ${r.chars(LETTERS, 2)} ${r.int(1, 9999).toString().padStart(4, '0')}`,
  },
  {
    code: 'US',
    id: 1,
    weight: 15,
    names: ['english'],
    domains: ['gmail.com', 'yahoo.com', 'outlook.com', 'icloud.com'],
    phone: (r) => `+1 ${r.int(201, 989)} ${r.int(200, 999)} ${r.digits(4)}`,
    plate: (r) =>
      r.chance(0.5)
        ? `${r.int(1, 9)}${r.chars(LETTERS, 3)}${r.digits(3)}`
        : `${r.chars(LETTERS, 3)}-${r.digits(4)}`,
  },
  {
    code: 'GB',
    id: 44,
    weight: 10,
    names: ['english', 'indian'],
    domains: ['gmail.com', 'hotmail.co.uk', 'outlook.com', 'icloud.com'],
    phone: (r) => `+44 7${r.digits(3)} ${r.digits(6)}`,
    // 'AB12 CDE': area, age identifier, random letters.
    plate: (r) =>
      `${r.chars(LETTERS, 2)}${r.pick(['19', '20', '21', '22', '23', '24', '25', '69', '70', '71', '72', '73', '74'])} ${r.chars(LETTERS, 3)}`,
  },
  {
    code: 'DE',
    id: 49,
    weight: 10,
    names: ['german'],
    domains: ['gmail.com', 'web.de', 'gmx.de', 't-online.de'],
    phone: (r) => `+49 1${r.pick(['51', '52', '57', '60', '70', '76'])} ${r.digits(8)}`,
    plate: (r) => `${r.pick(DE_CITIES)}-${r.chars(LETTERS, r.int(1, 2))} ${r.int(1, 9999)}`,
  },
  {
    code: 'AE',
    id: 971,
    weight: 10,
    names: ['arabic', 'arabic', 'indian'],
    domains: ['gmail.com', 'outlook.com', 'yahoo.com', 'icloud.com'],
    phone: (r) => `+971 5${r.pick(['0', '2', '4', '5', '6', '8'])} ${r.digits(3)} ${r.digits(4)}`,
    plate: (r) => `${r.pick(AE_EMIRATES)} ${r.chars(LETTERS, 1)} ${r.int(1, 99999)}`,
  },
];

const COUNTRY_LIST = new WeightedList(
  COUNTRIES,
  COUNTRIES.map((c) => c.weight),
);
const COUNTRY_BY_CODE = new Map(COUNTRIES.map((c) => [c.code, c]));

export function pickCountry(r: Rng): Country {
  return COUNTRY_LIST.pick(r);
}

export function countryByCode(code: string | null): Country {
  return COUNTRY_BY_CODE.get(code ?? '') ?? (COUNTRIES[0] as Country);
}

export const PLANS = ['free', 'basic', 'pro', 'premium', 'fleet'] as const;
const PLAN_WEIGHTS = [45, 20, 18, 10, 7];
export const STATUSES = ['active', 'inactive', 'suspended', 'expired', 'trial'] as const;
const STATUS_WEIGHTS = [60, 12, 3, 15, 10];
export const DEVICES = [
  'Android 15',
  'Android 14',
  'Android 13',
  'Android 12',
  'Android 11',
  'iOS 18.1',
  'iOS 17.5',
  'iOS 17.2',
  'iOS 16.7',
] as const;
const DEVICE_LIST = new WeightedList(DEVICES, [10, 25, 18, 10, 5, 8, 12, 7, 5]);
export const APP_VERSIONS = ['3.5.0', '3.4.2', '3.4.1', '3.4.0', '3.3.2', '3.3.0', '3.2.1', '3.1.0'] as const;
const APP_VERSION_LIST = new WeightedList(APP_VERSIONS, [8, 20, 25, 12, 12, 9, 8, 6]);

export function pickAppVersion(r: Rng): string {
  return APP_VERSION_LIST.pick(r);
}

export function pickDevice(r: Rng): string {
  return DEVICE_LIST.pick(r);
}

/** What the generated activity needs to know about a user. */
export interface UserRef {
  id: number;
  email: string;
  country: Country;
  device: string;
  appVersion: string;
}

/** 'Müller' → 'muller', 'Al Mansoori' → 'almansoori': the local part of an e-mail address. */
function slug(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');
}

/** The subscription status that goes with an account status. */
const SUBSCRIPTION_STATUS: Record<string, string> = {
  active: 'active',
  trial: 'trial',
  expired: 'expired',
  inactive: 'cancelled',
  suspended: 'on_hold',
};

/**
 * Users generated, inserted and then let go this many at a time: three million users with their
 * two 64-character secrets each, held whole with their subscriptions, ran out of Node's default
 * heap. The random stream is drawn in the same order as when they were all held (every user, then
 * every subscription), so the same volume seeds the same data.
 */
const USER_CHUNK = 100_000;

export async function seedUsers(ctx: SeedContext, count: number): Promise<UserRef[]> {
  const r = rng('users');
  const emails = new Set<string>();
  const threeYears = 3 * 365 * DAY_MS;
  const refs: UserRef[] = [];
  // What each user's subscriptions are drawn from, after every user (by index, as `refs`).
  const kept: { plan: string; status: string; createdMs: number }[] = [];
  const [before] = await ctx.kx
    .selectFrom('app_users')
    .select((eb) => eb.fn.max('id').as('id'))
    .execute();
  let lastId = Number(before?.id ?? 0);

  for (let from = 0; from < count; from += USER_CHUNK) {
    const users: Row<'app_users'>[] = [];
    const meta: { country: Country; device: string; appVersion: string; createdMs: number }[] = [];
    for (let i = from; i < Math.min(count, from + USER_CHUNK); i++) {
      const country = pickCountry(r);
      const names = NAMES[r.pick(country.names)];
      const first = r.pick(names.first);
      const last = r.pick(names.last);
      const domain = r.pick(country.domains);
      // first.last, first.last42, firstlast1990 …; numbers keep addresses unique, as in real sign-ups.
      let email = '';
      for (let n = r.chance(0.3) ? 0 : r.int(1, 999); ; n += r.int(1, 97)) {
        const sep = r.chance(0.7) ? '.' : r.chance(0.5) ? '_' : '';
        email = `${slug(first)}${sep}${slug(last)}${n === 0 ? '' : n}@${domain}`;
        if (!emails.has(email)) break;
      }
      emails.add(email);
      const createdMs = BASE_DATE_MS - Math.floor(r.next() * threeYears);
      const device = pickDevice(r);
      const appVersion = pickAppVersion(r);
      const plan = r.weighted(PLANS, PLAN_WEIGHTS);
      const status = plan === 'free' && r.chance(0.5) ? 'active' : r.weighted(STATUSES, STATUS_WEIGHTS);
      users.push({
        email,
        name: `${first} ${last}`,
        phone: r.chance(0.9) ? country.phone(r) : null,
        country: country.code,
        plan,
        status,
        device,
        app_version: appVersion,
        created_at: iso(createdMs),
        last_login_at: r.chance(0.95)
          ? iso(createdMs + Math.floor(r.next() * (BASE_DATE_MS - createdMs)))
          : null,
        // Secrets of the app's backend: present so tests can prove the dashboard never shows them.
        auth_token: r.hex(64),
        password_hash: r.hex(64),
      });
      meta.push({ country, device, appVersion, createdMs });
    }
    await insertAll(ctx, 'app_users', users);
    // This chunk's ids: nothing else inserts users while the seed runs.
    const ids = await ctx.kx
      .selectFrom('app_users')
      .select(['id', 'email'])
      .where('id', '>', lastId)
      .orderBy('id')
      .execute();
    const idByEmail = new Map(ids.map((u) => [u.email, u.id]));
    users.forEach((u, i) => {
      const m = meta[i];
      const id = idByEmail.get(u.email);
      if (!m || id === undefined) throw new Error(`Seed: user ${u.email} was not inserted`);
      refs.push({ id, email: u.email, country: m.country, device: m.device, appVersion: m.appVersion });
      kept.push({ plan: String(u.plan), status: String(u.status), createdMs: m.createdMs });
    });
    lastId = ids.at(-1)?.id ?? lastId;
  }

  let subscriptions: Row<'subscriptions'>[] = [];
  let subscriptionCount = 0;
  const flush = async () => {
    await insertAll(ctx, 'subscriptions', subscriptions);
    subscriptionCount += subscriptions.length;
    subscriptions = [];
  };
  for (const [i, user] of refs.entries()) {
    const u = kept[i];
    if (!u) continue;
    const ios = user.device.startsWith('iOS');
    const token = () =>
      ios ? `apple:${r.digits(15)}` : `GPA.${r.digits(4)}-${r.digits(4)}-${r.digits(4)}-${r.digits(5)}`;
    let startMs = u.createdMs + r.int(0, 20) * DAY_MS;
    // Some customers had an earlier, finished subscription before the current one.
    if (u.plan !== 'free' && r.chance(0.35)) {
      const endMs = startMs + (r.chance(0.7) ? 30 : 365) * DAY_MS;
      subscriptions.push({
        app_user_id: user.id,
        plan: r.pick(['basic', 'pro']),
        status: 'expired',
        starts_at: iso(startMs),
        ends_at: iso(endMs),
        purchase_token: token(),
      });
      startMs = endMs + r.int(0, 60) * DAY_MS;
    }
    const monthly = r.chance(0.6);
    subscriptions.push({
      app_user_id: user.id,
      plan: u.plan,
      status: SUBSCRIPTION_STATUS[u.status] ?? 'active',
      starts_at: iso(startMs),
      ends_at: u.plan === 'free' ? null : iso(startMs + (monthly ? 30 : 365) * DAY_MS),
      purchase_token: u.plan === 'free' ? null : token(),
    });
    if (subscriptions.length >= USER_CHUNK) await flush();
  }
  await flush();
  ctx.log(`app users ${refs.length}, subscriptions ${subscriptionCount}`);
  return refs;
}

/** The users already in the database (for appending activity). */
export async function loadUsers(ctx: SeedContext): Promise<UserRef[]> {
  const rows = await ctx.kx
    .selectFrom('app_users')
    .select(['id', 'email', 'country', 'device', 'app_version'])
    .orderBy('id')
    .execute();
  const r = rng('users:loaded');
  return rows.map((u) => ({
    id: u.id,
    email: u.email,
    country: countryByCode(u.country),
    device: u.device ?? pickDevice(r),
    appVersion: u.app_version ?? pickAppVersion(r),
  }));
}

// ---------------------------------------------------------------------------------------------
// VINs

/** Characters a VIN may use (ISO 3779: no I, O or Q). */
const VIN_CHARS = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
const VIN_VALUES: Record<string, number> = {
  A: 1,
  B: 2,
  C: 3,
  D: 4,
  E: 5,
  F: 6,
  G: 7,
  H: 8,
  J: 1,
  K: 2,
  L: 3,
  M: 4,
  N: 5,
  P: 7,
  R: 9,
  S: 2,
  T: 3,
  U: 4,
  V: 5,
  W: 6,
  X: 7,
  Y: 8,
  Z: 9,
};
const VIN_WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];
/** Model-year codes 2010–2026 (position 10). */
const YEAR_CODES = 'ABCDEFGHJKLMNPRST';

/** World manufacturer identifiers of makes whose WMI is well known (Indian plants where they sell most). */
const WMI: Record<string, readonly string[]> = {
  Honda: ['MAK', 'JHM', '1HG'],
  Toyota: ['MBJ', 'JTD', '4T1'],
  Ford: ['MAJ', '1FT', '1FA'],
  Chevrolet: ['1GC', '1G1'],
  Hyundai: ['MAL', 'KMH'],
  Kia: ['KNA', 'MZB'],
  BMW: ['WBA'],
  Audi: ['WAU'],
  Volkswagen: ['WVW', 'MEX'],
  Nissan: ['JN1', 'MDH'],
  Mahindra: ['MA1'],
  Tata: ['MAT'],
  'Tata EV': ['MAT'],
  Suzuki: ['MA3'],
  Renault: ['VF1'],
  'Mercedes Benz': ['WDD', 'W1K'],
  'Bajaj-Bikes': ['MD2'],
  'TVS Bikes': ['MD6'],
  'Royal Enfield Bikes': ['ME3'],
  'Honda Bikes': ['ME4'],
  'Yamaha Bikes': ['ME1'],
};

const wmiCache = new Map<string, readonly string[]>();

function wmiOf(make: string): readonly string[] {
  let list = WMI[make] ?? wmiCache.get(make);
  if (!list) {
    list = [rng(`wmi:${make}`).chars(VIN_CHARS, 3)];
    wmiCache.set(make, list);
  }
  return list;
}

/** A 17-character VIN with a valid check digit (position 9) and a model-year code (position 10). */
export function vin(r: Rng, make: string): string {
  const chars = `${r.pick(wmiOf(make))}${r.chars(VIN_CHARS, 5)}0${YEAR_CODES[r.int(0, YEAR_CODES.length - 1)]}${r.chars(VIN_CHARS, 1)}${r.digits(6)}`;
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const c = chars[i] as string;
    const value = c >= '0' && c <= '9' ? c.charCodeAt(0) - 48 : (VIN_VALUES[c] ?? 0);
    sum += value * (VIN_WEIGHTS[i] ?? 0);
  }
  const check = sum % 11;
  return `${chars.slice(0, 8)}${check === 10 ? 'X' : check}${chars.slice(9)}`;
}
