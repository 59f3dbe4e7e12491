// Deterministic mutations of real module bytes, shared by the error-parity test and the
// longer fuzz benchmark. Plain JS so that both vitest and a bare `node` can import it.

/**
 * A small seeded PRNG (mulberry32): same seed, same sequence.
 * @param {number} seed
 * @returns {() => number} uniform in [0, 1)
 */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Names of the mutation kinds, in the order they rotate. */
export const MUTATION_KINDS = ['truncate', 'flip-byte', 'set-byte', 'header-byte', 'table-count', 'table-entry', 'uleb-index', 'insert-byte', 'delete-byte', 'trailing-bytes', 'version', 'max-byte'];

/** Offset just after the table headers (approximate: parses the ULEBs, tolerant). */
function headerEnd(bytes) {
  let p = 8;
  const uleb = () => {
    let v = 0;
    let s = 0;
    while (p < bytes.length) {
      const b = bytes[p++];
      v += (b & 0x7f) * 2 ** s;
      if ((b & 0x80) === 0) break;
      s += 7;
      if (s > 35) break;
    }
    return v;
  };
  const n = uleb();
  for (let i = 0; i < n && p < bytes.length; i++) {
    p++;
    uleb();
    uleb();
  }
  return Math.min(p, bytes.length);
}

/**
 * Produce one mutation of `bytes`.
 * @param {Uint8Array} bytes a valid module
 * @param {() => number} rand PRNG
 * @param {string} kind one of MUTATION_KINDS
 * @returns {Uint8Array}
 */
export function mutate(bytes, rand, kind) {
  const int = (n) => Math.floor(rand() * n);
  const out = new Uint8Array(bytes);
  const hEnd = headerEnd(bytes);
  switch (kind) {
    case 'truncate':
      return bytes.slice(0, int(bytes.length));
    case 'flip-byte': {
      const i = int(out.length);
      out[i] ^= 1 << int(8);
      return out;
    }
    case 'set-byte': {
      out[int(out.length)] = int(256);
      return out;
    }
    case 'header-byte': {
      out[int(Math.max(1, hEnd))] = int(256);
      return out;
    }
    case 'table-count': {
      out[8] = int(4) === 0 ? int(256) : Math.max(0, out[8] + (int(2) === 0 ? 1 : -1));
      return out;
    }
    case 'table-entry': {
      if (hEnd <= 9) return out;
      const i = 9 + int(hEnd - 9);
      out[i] = int(3) === 0 ? int(0x15) : (out[i] + 1 + int(3)) & 0xff;
      return out;
    }
    case 'uleb-index': {
      // Replace a small byte in the table contents with a larger index value.
      if (hEnd >= out.length - 1) return out;
      for (let tries = 0; tries < 20; tries++) {
        const i = hEnd + int(out.length - hEnd - 1);
        if (out[i] < 0x40) {
          out[i] = Math.min(0x7f, out[i] + 1 + int(0x40));
          return out;
        }
      }
      return out;
    }
    case 'insert-byte': {
      const i = int(bytes.length + 1);
      const r = new Uint8Array(bytes.length + 1);
      r.set(bytes.subarray(0, i), 0);
      r[i] = int(256);
      r.set(bytes.subarray(i), i + 1);
      return r;
    }
    case 'delete-byte': {
      const i = int(bytes.length);
      const r = new Uint8Array(bytes.length - 1);
      r.set(bytes.subarray(0, i), 0);
      r.set(bytes.subarray(i + 1), i);
      return r;
    }
    case 'trailing-bytes': {
      const extra = 1 + int(4);
      const r = new Uint8Array(bytes.length + extra);
      r.set(bytes, 0);
      for (let j = 0; j < extra; j++) r[bytes.length + j] = int(256);
      return r;
    }
    case 'version': {
      const choices = [
        [1, 0, 0, 0],
        [4, 0, 0, 0],
        [5, 0, 0, 0],
        [6, 0, 0, 0],
        [7, 0, 0, 5],
        [7, 0, 0, 0],
        [8, 0, 0, 5],
        [6, 0, 0, 5],
        [0, 0, 0, 0],
        [7, 0, 0, 6],
      ];
      const c = choices[int(choices.length)];
      out.set(c, 4);
      return out;
    }
    case 'max-byte': {
      const i = hEnd + int(Math.max(1, out.length - hEnd));
      if (i < out.length) out[i] = 0xff;
      return out;
    }
    default:
      throw new Error(`unknown mutation kind ${kind}`);
  }
}

/**
 * Deterministic list of `count` mutations over `modules`.
 * @param {Uint8Array[]} modules
 * @param {number} count
 * @param {number} seed
 * @returns {{ kind: string, source: number, bytes: Uint8Array }[]}
 */
export function mutations(modules, count, seed = 1) {
  const rand = prng(seed);
  const out = [];
  for (let i = 0; i < count; i++) {
    const kind = MUTATION_KINDS[i % MUTATION_KINDS.length];
    const source = Math.floor(rand() * modules.length);
    out.push({ kind, source, bytes: mutate(modules[source], rand, kind) });
  }
  return out;
}

/**
 * Status code in a @mysten/move-bytecode-template error (`... with status CODE ...`).
 * @param {unknown} e
 * @returns {string}
 */
export function templateStatus(e) {
  const msg = typeof e === 'object' && e !== null && 'message' in e ? String(e.message) : String(e);
  const m = /status ([A-Z_0-9]+)/.exec(msg);
  return m ? m[1] : `UNPARSED(${msg.slice(0, 80)})`;
}
