/**
 * Upstream's test accounts, drawn exactly as its runner draws them: a `StdRng` (rand 0.8,
 * ChaCha12) seeded with `RNG_SEED`; per account, an Ed25519 key from a child `StdRng` seeded
 * with 32 bytes of the parent (`get_key_pair_from_rng`), then the gas coin's id as 32
 * `gen::<u8>()` draws (`ObjectID::new(rng.gen())`, one 32-bit word per byte). Named accounts
 * come first in name order, then the default account. With these, transaction digests and
 * every id derived from them (packages, objects) are upstream's.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { blake2b256 } from '@smi/ptb';

/** Upstream's `RNG_SEED` (sui-transactional-test-runner). */
const RNG_SEED = Uint8Array.from([21, 23, 199, 200, 234, 250, 252, 178, 94, 15, 202, 178, 62, 186, 88, 137, 233, 192, 130, 157, 179, 179, 65, 9, 31, 249, 221, 123, 225, 112, 199, 247]);

/** rand_chacha's ChaCha12 block RNG: 4 blocks (64 words) per refill, 64-bit counter, stream 0. */
class ChaCha12Rng {
  private readonly key = new Uint32Array(8);
  private counter = 0;
  private readonly buffer = new Uint32Array(64);
  private index = 64;
  private readonly state = new Uint32Array(16);
  private readonly x = new Uint32Array(16);

  constructor(seed: Uint8Array) {
    const view = new DataView(seed.buffer, seed.byteOffset, 32);
    for (let i = 0; i < 8; i++) this.key[i] = view.getUint32(i * 4, true);
  }

  private block(offset: number, counter: number): void {
    const s = this.state;
    const x = this.x;
    s.set([0x61707865, 0x3320646e, 0x79622d32, 0x6b206574]);
    s.set(this.key, 4);
    s[12] = counter >>> 0;
    s[13] = Math.floor(counter / 0x1_0000_0000);
    s[14] = 0;
    s[15] = 0;
    x.set(s);
    const quarter = (a: number, b: number, c: number, d: number): void => {
      x[a] += x[b];
      x[d] = rotl(x[d] ^ x[a], 16);
      x[c] += x[d];
      x[b] = rotl(x[b] ^ x[c], 12);
      x[a] += x[b];
      x[d] = rotl(x[d] ^ x[a], 8);
      x[c] += x[d];
      x[b] = rotl(x[b] ^ x[c], 7);
    };
    for (let round = 0; round < 6; round++) {
      quarter(0, 4, 8, 12);
      quarter(1, 5, 9, 13);
      quarter(2, 6, 10, 14);
      quarter(3, 7, 11, 15);
      quarter(0, 5, 10, 15);
      quarter(1, 6, 11, 12);
      quarter(2, 7, 8, 13);
      quarter(3, 4, 9, 14);
    }
    for (let i = 0; i < 16; i++) this.buffer[offset + i] = (x[i] + s[i]) >>> 0;
  }

  nextU32(): number {
    if (this.index >= 64) {
      for (let b = 0; b < 4; b++) this.block(b * 16, this.counter + b);
      this.counter += 4;
      this.index = 0;
    }
    return this.buffer[this.index++];
  }

  /** `fill_bytes`: whole words, little-endian, a partial last word consumed entirely. */
  fillBytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; ) {
      const word = this.nextU32();
      for (let k = 0; k < 4 && i < n; k++, i++) out[i] = (word >>> (8 * k)) & 0xff;
    }
    return out;
  }
}

function rotl(v: number, n: number): number {
  return (v << n) | (v >>> (32 - n));
}

/** PKCS#8 DER prefix of an Ed25519 private key (RFC 8410); the 32-byte seed follows. */
const PKCS8_ED25519 = Uint8Array.from([0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20]);

function ed25519PublicKey(seed: Uint8Array): Uint8Array {
  const key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, seed]), format: 'der', type: 'pkcs8' });
  const spki = createPublicKey(key).export({ format: 'der', type: 'spki' });
  return new Uint8Array(spki.subarray(spki.length - 32));
}

/** One drawn account: its address and its gas coin's id (`0x` + 64 hex). */
export interface SeededAccount {
  address: string;
  gas: string;
}

function hex(bytes: Uint8Array): string {
  return '0x' + Buffer.from(bytes).toString('hex');
}

/** The first `count` accounts upstream's runner draws, in draw order. */
export function seededAccounts(count: number): SeededAccount[] {
  const rng = new ChaCha12Rng(RNG_SEED);
  const out: SeededAccount[] = [];
  for (let i = 0; i < count; i++) {
    const child = new ChaCha12Rng(rng.fillBytes(32));
    const publicKey = ed25519PublicKey(child.fillBytes(32));
    // A Sui address: BLAKE2b-256 of the scheme flag (0 = Ed25519) and the public key.
    const address = hex(blake2b256(Uint8Array.from([0, ...publicKey])));
    const gas = Uint8Array.from({ length: 32 }, () => rng.nextU32() & 0xff);
    out.push({ address, gas: hex(gas) });
  }
  return out;
}
