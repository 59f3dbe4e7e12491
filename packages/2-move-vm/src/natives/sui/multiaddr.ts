/**
 * Parsing of multiaddr strings as the `multiaddr` crate (0.18) does
 * (`Multiaddr::from_str`): a leading `/`, then protocols with their payloads. The empty
 * string is the empty multiaddr; `/` alone and a trailing `/` are errors (an empty
 * protocol name). IP addresses follow Rust's `Ipv4Addr` / `Ipv6Addr` parsers, ports
 * Rust's `u16::from_str` (a leading `+` is accepted).
 *
 * Protocols whose payload is a multihash or a base-n encoding (`p2p`/`ipfs`, `onion`,
 * `onion3`, `garlic64`, `garlic32`, `certhash`) are not decoded: {@link parseMultiaddr}
 * reports them as `unsupported` rather than guessing.
 */

/** One component of a multiaddr. */
export interface MultiaddrPart {
  protocol: string;
  /** The payload as written (for IPs, ports, names), `undefined` for protocols without one. */
  value: string | undefined;
}

/** Result of {@link parseMultiaddr}. */
export type MultiaddrParse = { kind: 'ok'; parts: MultiaddrPart[] } | { kind: 'invalid'; reason: string } | { kind: 'unsupported'; protocol: string };

const NO_PAYLOAD = new Set([
  'udt',
  'utp',
  'tls',
  'noise',
  'quic',
  'quic-v1',
  'webtransport',
  'http',
  'https',
  'ws',
  'wss',
  'p2p-websocket-star',
  'p2p-stardust',
  'p2p-webrtc-star',
  'p2p-webrtc-direct',
  'webrtc-direct',
  'webrtc',
  'p2p-circuit',
]);
const ANY_STRING = new Set(['ip6zone', 'dns', 'dns4', 'dns6', 'dnsaddr', 'unix', 'sni']);
const UNSUPPORTED = new Set(['p2p', 'ipfs', 'onion', 'onion3', 'garlic64', 'garlic32', 'certhash']);
const UINT_BITS: Readonly<Record<string, bigint>> = { tcp: 16n, udp: 16n, dccp: 16n, sctp: 16n, ipcidr: 8n, memory: 64n };

/** Rust `uN::from_str`: optional `+`, then decimal digits, no overflow. */
function parseRustUint(s: string, bits: bigint): bigint | null {
  const m = /^\+?([0-9]+)$/.exec(s);
  if (m === null) return null;
  const v = BigInt(m[1]);
  return v < 1n << bits ? v : null;
}

class Cursor {
  pos = 0;
  constructor(readonly s: string) {}

  atomically<T>(f: () => T | null): T | null {
    const at = this.pos;
    const r = f();
    if (r === null) this.pos = at;
    return r;
  }

  char(c: string): boolean {
    if (this.s[this.pos] !== c) return false;
    this.pos++;
    return true;
  }

  /** Rust `read_number(radix, max_digits, allow_zero_prefix)`. */
  number(radix: 10 | 16, maxDigits: number, allowZeroPrefix: boolean, max: number): number | null {
    return this.atomically(() => {
      const leadingZero = this.s[this.pos] === '0';
      let v = 0;
      let digits = 0;
      for (;;) {
        const c = this.s[this.pos];
        const d = c === undefined ? NaN : parseInt(c, radix);
        if (Number.isNaN(d)) break;
        this.pos++;
        v = v * radix + d;
        if (v > max) return null;
        digits++;
        if (digits > maxDigits) return null;
      }
      if (digits === 0) return null;
      if (!allowZeroPrefix && leadingZero && digits > 1) return null;
      return v;
    });
  }

  sep<T>(sep: string, index: number, inner: () => T | null): T | null {
    return this.atomically(() => {
      if (index > 0 && !this.char(sep)) return null;
      return inner();
    });
  }

  ipv4(): number[] | null {
    return this.atomically(() => {
      const out: number[] = [];
      for (let i = 0; i < 4; i++) {
        const g = this.sep('.', i, () => this.number(10, 3, false, 255));
        if (g === null) return null;
        out.push(g);
      }
      return out;
    });
  }

  groups(out: number[], limit: number): { size: number; ipv4: boolean } {
    for (let i = 0; i < limit; i++) {
      if (i < limit - 1) {
        const v4 = this.sep(':', i, () => this.ipv4());
        if (v4 !== null) {
          out[i] = (v4[0] << 8) | v4[1];
          out[i + 1] = (v4[2] << 8) | v4[3];
          return { size: i + 2, ipv4: true };
        }
      }
      const g = this.sep(':', i, () => this.number(16, 4, true, 0xffff));
      if (g === null) return { size: i, ipv4: false };
      out[i] = g;
    }
    return { size: limit, ipv4: false };
  }

  ipv6(): number[] | null {
    return this.atomically(() => {
      const head: number[] = new Array<number>(8).fill(0);
      const h = this.groups(head, 8);
      if (h.size === 8) return head;
      if (h.ipv4) return null;
      if (!this.char(':') || !this.char(':')) return null;
      const tail: number[] = [];
      const t = this.groups(tail, 8 - (h.size + 1));
      for (let i = 0; i < t.size; i++) head[8 - t.size + i] = tail[i];
      return head;
    });
  }
}

/** Rust `Ipv4Addr::from_str`. */
function isRustIpv4(s: string): boolean {
  const c = new Cursor(s);
  return c.ipv4() !== null && c.pos === s.length;
}

/** Rust `Ipv6Addr::from_str`. */
function isRustIpv6(s: string): boolean {
  const c = new Cursor(s);
  return c.ipv6() !== null && c.pos === s.length;
}

function isHexByte(b: number | undefined): boolean {
  return b !== undefined && ((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66));
}

/** `percent_decode(s).decode_utf8()` succeeds. */
function percentDecodesToUtf8(s: string): boolean {
  const raw = new TextEncoder().encode(s);
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === 0x25 && isHexByte(raw[i + 1]) && isHexByte(raw[i + 2])) {
      bytes.push(parseInt(String.fromCharCode(raw[i + 1], raw[i + 2]), 16));
      i += 2;
    } else bytes.push(raw[i]);
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
    return true;
  } catch {
    return false;
  }
}

/** `Multiaddr::from_str`. */
export function parseMultiaddr(input: string): MultiaddrParse {
  const parts = input.split('/');
  if (parts[0] !== '') return { kind: 'invalid', reason: 'a multiaddr must start with /' };
  const out: MultiaddrPart[] = [];
  let i = 1;
  const payload = (): string | undefined => (i < parts.length ? parts[i++] : undefined);
  while (i < parts.length) {
    const protocol = parts[i++];
    if (NO_PAYLOAD.has(protocol)) {
      out.push({ protocol, value: undefined });
      continue;
    }
    if (UNSUPPORTED.has(protocol)) return { kind: 'unsupported', protocol };
    const value = payload();
    if (value === undefined) return { kind: 'invalid', reason: `${protocol} needs a value` };
    const bits = UINT_BITS[protocol];
    let ok: boolean;
    if (protocol === 'ip4') ok = isRustIpv4(value);
    else if (protocol === 'ip6') ok = isRustIpv6(value);
    else if (bits !== undefined) ok = parseRustUint(value, bits) !== null;
    else if (ANY_STRING.has(protocol)) ok = true;
    else if (protocol === 'x-parity-ws' || protocol === 'x-parity-wss') ok = percentDecodesToUtf8(value);
    else return { kind: 'invalid', reason: `unknown protocol ${JSON.stringify(protocol)}` };
    if (!ok) return { kind: 'invalid', reason: `bad ${protocol} value ${JSON.stringify(value)}` };
    out.push({ protocol, value });
  }
  return { kind: 'ok', parts: out };
}

/** `Multiaddr::to_anemo_address` succeeds: `/ip4|ip6|dns/<host>/udp/<port>` first. */
export function isAnemoAddress(parts: readonly MultiaddrPart[]): boolean {
  return parts.length >= 2 && (parts[0].protocol === 'ip4' || parts[0].protocol === 'ip6' || parts[0].protocol === 'dns') && parts[1].protocol === 'udp';
}
