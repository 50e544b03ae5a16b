import { hash, type Options, verify } from '@node-rs/argon2';

// argon2id with OWASP's recommended minimum (19 MiB, 2 passes): ~30 ms here, slow enough for
// an attacker, fast enough that sign-in never waits.
// `algorithm: 2` is Algorithm.Argon2id (a const enum, which isolated modules cannot import).
const OPTIONS: Options = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string) => hash(password, OPTIONS);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A hash of a random password, verified against when the email is unknown so timing tells nothing. */
let decoy: Promise<string> | undefined;
export const decoyHash = () => {
  decoy ??= hashPassword(`decoy-${Math.random()}`);
  return decoy;
};
