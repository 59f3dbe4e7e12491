/**
 * Python's `random.Random(seed)` (MT19937 seeded with `init_by_array` over the 32-bit words
 * of `abs(seed)`), far enough for the original's mock agents: `random()` and `randint()`.
 * The same seed gives the same numbers as CPython, so a mock agent that visits the truth
 * in a fixed order reproduces what the original would have produced in that order.
 */

const N = 624;
const M = 397;

/** `random.Random(seed)` for an integer seed. */
export class PyRandom {
  private readonly mt = new Uint32Array(N);
  private index = N + 1;

  constructor(seed: bigint | number) {
    let n = BigInt(seed);
    if (n < 0n) n = -n;
    const key: number[] = [];
    do {
      key.push(Number(n & 0xffffffffn));
      n >>= 32n;
    } while (n > 0n);
    this.initByArray(key);
  }

  private initGenrand(s: number): void {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.index = N;
  }

  private initByArray(key: readonly number[]): void {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1664525)) + key[j] + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1];
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1];
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  /** The next 32-bit output. */
  uint32(): number {
    const mt = this.mt;
    if (this.index >= N) {
      for (let k = 0; k < N; k++) {
        const y = (mt[k] & 0x80000000) | (mt[(k + 1) % N] & 0x7fffffff);
        mt[k] = mt[(k + M) % N] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.index = 0;
    }
    let y = mt[this.index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** `random()`: a float in [0, 1) with 53 random bits. */
  random(): number {
    const a = this.uint32() >>> 5;
    const b = this.uint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /** `getrandbits(k)` for 1 ≤ k ≤ 32. */
  private bits(k: number): number {
    return this.uint32() >>> (32 - k);
  }

  /** `randint(a, b)`: an integer in [a, b] (Python's rejection sampling, span < 2^32). */
  randint(a: number, b: number): number {
    const n = b - a + 1;
    if (n <= 0 || n > 0xffffffff) throw new RangeError(`randint(${a}, ${b}): empty or too wide a range`);
    const k = Math.floor(Math.log2(n)) + 1;
    let r = this.bits(k);
    while (r >= n) r = this.bits(k);
    return a + r;
  }
}
