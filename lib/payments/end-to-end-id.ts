/**
 * End-to-end ids proposed by the payment form, so nobody has to invent one:
 * `E2E-YYYYMMDD-XXXXXXXXXX` (23 characters, within ISO 20022's 35), the
 * date the row was added and 10 random characters of an alphabet without
 * look-alikes (no 0/O, 1/I/L), about 50 bits: unique for every practical
 * batch. The person may overwrite it; the contract's uniqueness check still
 * applies. Pure apart from the injectable randomness; importable by the browser.
 */

/** Characters of the random part (Crockford base 32 without I, L, O, U). */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const RANDOM_LENGTH = 10;

/** Fills `n` random bytes (default: Web Crypto). */
export type RandomBytes = (n: number) => Uint8Array;

const cryptoBytes: RandomBytes = (n) => crypto.getRandomValues(new Uint8Array(n));

/**
 * A fresh end-to-end id for a row added on `date` (`YYYY-MM-DD`, default today in UTC), at most 35 characters,
 * distinct from every id in `taken` (drawn again on the rare collision).
 */
export function newEndToEndId(opts: { date?: string; taken?: ReadonlySet<string>; random?: RandomBytes } = {}): string {
  const day = (opts.date ?? new Date().toISOString().slice(0, 10)).replaceAll("-", "");
  const random = opts.random ?? cryptoBytes;
  for (;;) {
    const bytes = random(RANDOM_LENGTH);
    let tail = "";
    for (let i = 0; i < RANDOM_LENGTH; i++) tail += ALPHABET[(bytes[i] ?? 0) % ALPHABET.length];
    const id = `E2E-${day}-${tail}`;
    if (!opts.taken?.has(id)) return id;
  }
}
