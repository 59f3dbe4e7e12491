/**
 * Just enough X.509 (RFC 5280) for the AWS Nitro certificate chains: a DER reader, the
 * certificate fields the chain check uses (names, validity, key usage, basic constraints,
 * EC public key), and ECDSA (P-256/P-384 with SHA-256/384) signature verification, with
 * the rules of `x509-parser` + `ring` that Sui uses.
 */
import { p256, p384 } from '@noble/curves/nist.js';
import { sha256, sha384 } from '@noble/hashes/sha2.js';
import { bytesEqual, fromHex, toHex } from './common.js';
import { SmiError, type SmiErrorOptions } from '@smi/bytecode';

/** Malformed DER or certificate. */
class X509Error extends SmiError<'X509_INVALID'> {
  constructor(message: string, options?: SmiErrorOptions) {
    super('X509_INVALID', message, options);
  }
}

interface Tlv {
  readonly tag: number;
  readonly start: number;
  readonly body: number;
  readonly end: number;
}

function tlvAt(b: Uint8Array, pos: number, limit = b.length): Tlv {
  if (pos + 2 > limit) throw new X509Error('truncated');
  const tag = b[pos];
  if ((tag & 0x1f) === 0x1f) throw new X509Error('high tag number');
  let len = b[pos + 1];
  let body = pos + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4 || body + n > limit) throw new X509Error('bad length');
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + b[body + i];
    body += n;
  }
  if (body + len > limit) throw new X509Error('truncated');
  return { tag, start: pos, body, end: body + len };
}

function children(b: Uint8Array, t: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let p = t.body; p < t.end; ) {
    const c = tlvAt(b, p, t.end);
    out.push(c);
    p = c.end;
  }
  return out;
}

function expect(t: Tlv | undefined, tag: number): Tlv {
  if (t === undefined || t.tag !== tag) throw new X509Error(`expected tag 0x${tag.toString(16)}`);
  return t;
}

const OID = {
  ecPublicKey: fromHex('2a8648ce3d0201'),
  p256: fromHex('2a8648ce3d030107'),
  p384: fromHex('2b81040022'),
  ecdsaSha256: fromHex('2a8648ce3d040302'),
  ecdsaSha384: fromHex('2a8648ce3d040303'),
  keyUsage: fromHex('551d0f'),
  basicConstraints: fromHex('551d13'),
};

/** The parts of a certificate the Nitro chain check needs. */
export interface Certificate {
  readonly tbs: Uint8Array;
  readonly issuer: Uint8Array;
  readonly subject: Uint8Array;
  readonly notBefore: number;
  readonly notAfter: number;
  /** SPKI algorithm OID and parameters (curve OID), key bytes (BIT STRING content). */
  readonly keyAlgorithm: Uint8Array;
  readonly keyCurve: Uint8Array | null;
  readonly publicKey: Uint8Array;
  readonly signatureAlgorithm: Uint8Array;
  readonly signature: Uint8Array;
  /** Extensions by OID hex (`null` value: the OID occurs twice). */
  readonly extensions: ReadonlyMap<string, { critical: boolean; value: Uint8Array } | null>;
}

function parseTime(b: Uint8Array, t: Tlv): number {
  const s = new TextDecoder().decode(b.subarray(t.body, t.end));
  const m = t.tag === 0x17 ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(s) : /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(s);
  if (t.tag !== 0x17 && t.tag !== 0x18) throw new X509Error('bad time');
  if (m === null) throw new X509Error('bad time');
  let year = Number(m[1]);
  if (t.tag === 0x17) year += year >= 50 ? 1900 : 2000;
  return Date.UTC(year, Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])) / 1000;
}

function bitStringContent(b: Uint8Array, t: Tlv): Uint8Array {
  expect(t, 0x03);
  if (t.end - t.body < 1) throw new X509Error('empty bit string');
  return b.subarray(t.body + 1, t.end);
}

/** Parse a DER certificate (trailing bytes after it are ignored). */
export function parseCertificate(der: Uint8Array): Certificate {
  const cert = expect(tlvAt(der, 0), 0x30);
  const [tbsT, sigAlgT, sigT] = children(der, cert);
  expect(tbsT, 0x30);
  const tbs = children(der, tbsT);
  let i = tbs[0]?.tag === 0xa0 ? 1 : 0;
  expect(tbs[i++], 0x02);
  expect(tbs[i++], 0x30);
  const issuer = expect(tbs[i++], 0x30);
  const [nb, na] = children(der, expect(tbs[i++], 0x30));
  const subject = expect(tbs[i++], 0x30);
  const [algT, keyT] = children(der, expect(tbs[i++], 0x30));
  const alg = children(der, expect(algT, 0x30));
  const extensions = new Map<string, { critical: boolean; value: Uint8Array } | null>();
  for (; i < tbs.length; i++) {
    if (tbs[i].tag !== 0xa3) continue;
    for (const ext of children(der, expect(children(der, tbs[i])[0], 0x30))) {
      const parts = children(der, expect(ext, 0x30));
      const oid = expect(parts[0], 0x06);
      const critical = parts.length === 3 && der[expect(parts[1], 0x01).body] !== 0;
      const value = expect(parts[parts.length - 1], 0x04);
      const key = toHex(der.subarray(oid.body, oid.end));
      extensions.set(key, extensions.has(key) ? null : { critical, value: der.subarray(value.body, value.end) });
    }
  }
  const sigAlg = children(der, expect(sigAlgT, 0x30));
  return {
    tbs: der.subarray(tbsT.start, tbsT.end),
    issuer: der.subarray(issuer.start, issuer.end),
    subject: der.subarray(subject.start, subject.end),
    notBefore: parseTime(der, nb),
    notAfter: parseTime(der, na),
    keyAlgorithm: der.subarray(expect(alg[0], 0x06).body, alg[0].end),
    keyCurve: alg[1]?.tag === 0x06 ? der.subarray(alg[1].body, alg[1].end) : null,
    publicKey: bitStringContent(der, keyT),
    signatureAlgorithm: der.subarray(expect(sigAlg[0], 0x06).body, sigAlg[0].end),
    signature: bitStringContent(der, sigT),
    extensions,
  };
}

function extension(c: Certificate, oid: Uint8Array): { critical: boolean; value: Uint8Array } | null | 'duplicate' {
  const e = c.extensions.get(toHex(oid));
  return e === undefined ? null : e === null ? 'duplicate' : e;
}

/** Key usage bits (`null` when absent or unusable). */
export function keyUsage(c: Certificate): { digitalSignature: boolean; keyCertSign: boolean } | null {
  const e = extension(c, OID.keyUsage);
  if (e === null || e === 'duplicate') return null;
  const bits = bitStringContent(e.value, tlvAt(e.value, 0));
  return { digitalSignature: ((bits[0] ?? 0) & 0x80) !== 0, keyCertSign: ((bits[0] ?? 0) & 0x04) !== 0 };
}

/** Basic constraints (`null` when absent or unusable). */
export function basicConstraints(c: Certificate): { critical: boolean; ca: boolean; pathLen: number | null } | null {
  const e = extension(c, OID.basicConstraints);
  if (e === null || e === 'duplicate') return null;
  const seq = tlvAt(e.value, 0);
  let ca = false;
  let pathLen: number | null = null;
  for (const part of children(e.value, expect(seq, 0x30))) {
    if (part.tag === 0x01) ca = e.value[part.body] !== 0;
    else if (part.tag === 0x02) pathLen = e.value.subarray(part.body, part.end).reduce((n, x) => n * 256 + x, 0);
  }
  return { critical: e.critical, ca, pathLen };
}

/** Strict DER `ECDSA-Sig-Value` to (r, s). */
function derSignature(sig: Uint8Array): [bigint, bigint] | null {
  try {
    const seq = expect(tlvAt(sig, 0), 0x30);
    if (seq.end !== sig.length) return null;
    const parts = children(sig, seq);
    if (parts.length !== 2) return null;
    return parts.map((p) => {
      expect(p, 0x02);
      const v = sig.subarray(p.body, p.end);
      if (v.length === 0 || v[0] & 0x80 || (v.length > 1 && v[0] === 0 && !(v[1] & 0x80))) throw new X509Error('bad integer');
      return v.reduce((n, x) => (n << 8n) | BigInt(x), 0n);
    }) as [bigint, bigint];
  } catch {
    return null;
  }
}

/** Verify `cert`'s signature with the issuer's key (ECDSA only, as ring accepts it). */
export function verifyCertificateSignature(cert: Certificate, issuer: Certificate): boolean {
  const hash = bytesEqual(cert.signatureAlgorithm, OID.ecdsaSha256) ? sha256 : bytesEqual(cert.signatureAlgorithm, OID.ecdsaSha384) ? sha384 : null;
  if (hash === null || !bytesEqual(issuer.keyAlgorithm, OID.ecPublicKey) || issuer.keyCurve === null) return false;
  const curve = bytesEqual(issuer.keyCurve, OID.p256) ? p256 : bytesEqual(issuer.keyCurve, OID.p384) ? p384 : null;
  if (curve === null || issuer.publicKey[0] !== 0x04) return false;
  const rs = derSignature(cert.signature);
  if (rs === null) return false;
  const n = curve.Point.Fn.ORDER;
  if (rs[0] <= 0n || rs[0] >= n || rs[1] <= 0n || rs[1] >= n) return false;
  try {
    const compact = new curve.Signature(rs[0], rs[1]).toBytes('compact');
    return curve.verify(compact, hash(cert.tbs), issuer.publicKey, { prehash: false, lowS: false, format: 'compact' });
  } catch {
    return false;
  }
}

/** `true` when `id` is the `id-ecPublicKey` algorithm. */
export function isEcPublicKey(c: Certificate): boolean {
  return bytesEqual(c.keyAlgorithm, OID.ecPublicKey);
}
