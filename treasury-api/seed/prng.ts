/**
 * A small seeded pseudo-random generator for the demo seed:
 * the same seed and key always give the same sequence, so the demo data is
 * reproducible. sfc32 (Chris Doty-Humphrey's "Small Fast Counting" generator,
 * 128-bit state, passes PractRand) seeded through cyrb128, a 128-bit string
 * hash. Hand-written rather than a package because generating a million
 * transactions draws tens of millions of numbers and an inlined 32-bit
 * generator keeps that fast; not for cryptography.
 */

/** cyrb128: a fast, well-mixed 128-bit hash of a string, as four uint32. */
function cyrb128(str: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < str.length; i++) {
    const k = str.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/**
 * A deterministic random stream. Create one per independent purpose with
 * {@link createRng}(seed, key) so that adding draws in one place does not
 * shift the data generated anywhere else.
 */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(state: [number, number, number, number]) {
    [this.a, this.b, this.c, this.d] = state;
    // Warm up: the first outputs of sfc32 are correlated with the seed.
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  /** A uniform unsigned 32-bit integer. */
  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A uniform float in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** A uniform integer in [min, max] (both inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /**
   * One element of a non-empty list.
   * @throws Error when the list is empty.
   */
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error("Rng.pick: empty list");
    return item;
  }

  /** A standard normal variate (Box–Muller). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /**
   * A Poisson-distributed count with mean `lambda` (Knuth for small means,
   * a rounded normal approximation above 30, where it is indistinguishable
   * for a demo and avoids O(lambda) draws).
   */
  poisson(lambda: number): number {
    if (lambda <= 0) return 0;
    if (lambda > 30) return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * this.normal()));
    const limit = Math.exp(-lambda);
    let k = 0;
    let p = this.next();
    while (p > limit) {
      k++;
      p *= this.next();
    }
    return k;
  }

  /** `n` random decimal digits as a string. */
  digits(n: number): string {
    let s = "";
    for (let i = 0; i < n; i++) s += String(Math.floor(this.next() * 10));
    return s;
  }

  /** A UUID (version 4 layout, RFC 9562) made from 16 bytes of this stream. */
  uuid(): string {
    const w0 = this.nextUint32();
    const w1 = this.nextUint32();
    const w2 = this.nextUint32();
    const w3 = this.nextUint32();
    const b6 = ((w1 >>> 8) & 0x0f) | 0x40; // version 4
    const b8 = ((w2 >>> 24) & 0x3f) | 0x80; // RFC 9562 variant
    return (
      `${HEX[w0 >>> 24]}${HEX[(w0 >>> 16) & 255]}${HEX[(w0 >>> 8) & 255]}${HEX[w0 & 255]}-` +
      `${HEX[w1 >>> 24]}${HEX[(w1 >>> 16) & 255]}-${HEX[b6]}${HEX[w1 & 255]}-` +
      `${HEX[b8]}${HEX[(w2 >>> 16) & 255]}-${HEX[(w2 >>> 8) & 255]}${HEX[w2 & 255]}` +
      `${HEX[w3 >>> 24]}${HEX[(w3 >>> 16) & 255]}${HEX[(w3 >>> 8) & 255]}${HEX[w3 & 255]}`
    );
  }
}

/**
 * A stream for `key` under `seed`. Different keys give independent streams;
 * the same (seed, key) always gives the same stream.
 */
export function createRng(seed: number, key: string): Rng {
  return new Rng(cyrb128(`${seed}:${key}`));
}

/** A UUID that depends only on (seed, key): stable ids for named entities. */
export function stableUuid(seed: number, key: string): string {
  return createRng(seed, `uuid:${key}`).uuid();
}
