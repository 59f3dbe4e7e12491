/**
 * `sui::nitro_attestation::load_nitro_attestation_internal`: parse an AWS Nitro Enclaves
 * attestation (COSE_Sign1 over a CBOR attestation document), verify its P-384 signature
 * and its certificate chain up to the AWS Nitro root at the given time (ms), and return
 * the `NitroAttestationDocument`, as `sui-types/src/nitro_attestation.rs`.
 *
 * Aborts: 0 not supported, 1 parse error, 2 verification error, 3 (legacy parsing only)
 * PCRs other than exactly 0, 1, 2, 3, 4, 8. Gas: parse base + per byte × |attestation|,
 * then verify base + per certificate × |cabundle|.
 */
import { p384 } from '@noble/curves/nist.js';
import { sha384 } from '@noble/hashes/sha2.js';
import type { NativeFunction } from '../../registry.js';
import { abort, bigArg, bytesArg, type CryptoEnv, cost, vecBoxed, vecU8 } from './common.js';
import { type CborValue, cborEqual, decodeCbor, encodeCborArray } from './cbor.js';
import { basicConstraints, type Certificate, isEcPublicKey, keyUsage, parseCertificate, verifyCertificateSignature } from './x509.js';
import { SmiError, type SmiErrorOptions } from '@smi/bytecode';

/** The AWS Nitro Enclaves root certificate (G1), as Sui embeds it. */
const ROOT_CERTIFICATE_B64 =
  'MIICETCCAZagAwIBAgIRAPkxdWgbkK/hHUbMtOTn+FYwCgYIKoZIzj0EAwMwSTELMAkGA1UEBhMCVVMxDzANBgNVBAoMBkFtYXpvbjEMMAoGA1UECwwDQVdTMRswGQYDVQQDDBJhd3Mubml0cm8tZW5jbGF2ZXMwHhcNMTkxMDI4MTMyODA1WhcNNDkxMDI4MTQyODA1WjBJMQswCQYDVQQGEwJVUzEPMA0GA1UECgwGQW1hem9uMQwwCgYDVQQLDANBV1MxGzAZBgNVBAMMEmF3cy5uaXRyby1lbmNsYXZlczB2MBAGByqGSM49AgEGBSuBBAAiA2IABPwCVOumCMHzaHDimtqQvkY4MpJzbolL//Zy2YlES1BR5TSksfbb48C8WBoyt7F2Bw7eEtaaP+ohG2bnUs990d0JX28TcPQXCEPZ3BABIeTPYwEoCWZEh8l5YoQwTcU/9KNCMEAwDwYDVR0TAQH/BAUwAwEB/zAdBgNVHQ4EFgQUkCW1DdkFR+eWw5b6cp3PmanfS5YwDgYDVR0PAQH/BAQDAgGGMAoGCCqGSM49BAMDA2kAMGYCMQCjfy+Rocm9Xue4YnwWmNJVA44fA0P5W2OpYow9OYCVRaEevL8uO1XYru5xtMPWrfMCMQCi85sWBbJwKKXdS6BptQFuZbT73o/gBh1qUxl/nNr12UO8Yfwr6wPLb+6NIwLz3/Y=';

const MAX_CERT_CHAIN_LENGTH = 10;
const MAX_USER_DATA_LENGTH = 512;
const MAX_PK_LENGTH = 1024;
const MAX_PCRS_LENGTH = 32;
const MAX_CERT_LENGTH = 1024;
const REQUIRED_PCRS = [0, 1, 2, 3, 4, 8];

class ParseError extends SmiError<'ATTESTATION_PARSE_FAILED'> {
  constructor(message: string, options?: SmiErrorOptions) {
    super('ATTESTATION_PARSE_FAILED', message, options);
  }
}
class VerifyError extends SmiError<'ATTESTATION_NOT_VERIFIED'> {
  constructor(message: string, options?: SmiErrorOptions) {
    super('ATTESTATION_NOT_VERIFIED', message, options);
  }
}

/** A parsed attestation document. */
export interface AttestationDocument {
  readonly moduleId: string;
  readonly timestamp: bigint;
  readonly digest: string;
  readonly pcrVec: Uint8Array[];
  readonly pcrMap: Map<number, Uint8Array>;
  readonly certificate: Uint8Array;
  readonly cabundle: Uint8Array[];
  readonly publicKey: Uint8Array | null;
  readonly userData: Uint8Array | null;
  readonly nonce: Uint8Array | null;
}

/** Parsing switches (protocol feature flags). */
export interface NitroParseFlags {
  readonly upgraded: boolean;
  readonly allNonzeroPcrs: boolean;
  readonly alwaysRequiredPcrs: boolean;
}

function cbor(b: Uint8Array): CborValue {
  try {
    return decodeCbor(b);
  } catch {
    throw new ParseError('bad CBOR');
  }
}

function bytesOf(v: CborValue | undefined): Uint8Array | null {
  return v?.t === 'bytes' ? v.v : null;
}

/** COSE_Sign1 → (protected, payload, signature), with upstream's header checks. */
function parseCose(b: Uint8Array): { protectedHeader: Uint8Array; payload: Uint8Array; signature: Uint8Array } {
  let v = cbor(b);
  if (v.t === 'tag') {
    if (v.tag !== 18n) throw new ParseError('invalid tag');
    v = v.v;
  }
  if (v.t !== 'array' || v.v.length < 4) throw new ParseError('not a COSE_Sign1 array');
  const [prot, unprot, payloadV, sigV] = v.v;
  const protectedHeader = bytesOf(prot);
  const payload = bytesOf(payloadV);
  const signature = bytesOf(sigV);
  if (protectedHeader === null || payload === null || signature === null) throw new ParseError('fields must be bytes');
  if (unprot.t !== 'map' || hasDuplicateKeys(unprot.v)) throw new ParseError('bad unprotected header');
  const header = cbor(protectedHeader);
  if (header.t !== 'map' || hasDuplicateKeys(header.v)) throw new ParseError('bad protected header');
  const [entry] = header.v;
  const valid = header.v.length === 1 && entry[0].t === 'int' && entry[0].v === 1n && entry[1].t === 'int' && entry[1].v === -35n;
  if (!valid || payload.length < 1 || payload.length >= 16384 || signature.length !== 96) throw new ParseError('invalid cbor header');
  return { protectedHeader, payload, signature };
}

function hasDuplicateKeys(pairs: readonly (readonly [CborValue, CborValue])[]): boolean {
  return pairs.some(([k], i) => pairs.slice(0, i).some(([k2]) => cborEqual(k, k2)));
}

function u64Of(v: CborValue | undefined, what: string): bigint {
  if (v?.t !== 'int' || v.v < 0n || v.v >= 1n << 64n) throw new ParseError(what);
  return v.v;
}

/** Parse the attestation document (upstream `AttestationDocument::parse_payload`). */
function parseAttestationDocument(payload: Uint8Array, flags: NitroParseFlags): AttestationDocument {
  const doc = cbor(payload);
  if (doc.t !== 'map') throw new ParseError('expected map');
  const map = new Map<string, CborValue>();
  for (const [k, v] of doc.v) {
    if (k.t !== 'text') throw new ParseError('invalid key type');
    map.set(k.v, v);
  }
  if (flags.upgraded && map.size !== doc.v.length) throw new ParseError('duplicate keys');
  const text = (key: string) => {
    const v = map.get(key);
    if (v?.t !== 'text') throw new ParseError(`invalid ${key}`);
    return v.v;
  };
  const moduleId = text('module_id');
  if (moduleId === '') throw new ParseError('invalid module id');
  const digest = text('digest');
  if (digest !== 'SHA384') throw new ParseError('invalid digest');
  const certificate = bytesOf(map.get('certificate'));
  if (certificate === null || certificate.length === 0 || certificate.length > MAX_CERT_LENGTH) throw new ParseError('invalid certificate');
  const timestamp = u64Of(map.get('timestamp'), 'timestamp');
  const publicKey = bytesOf(map.get('public_key'));
  if (publicKey !== null && (publicKey.length > MAX_PK_LENGTH || (!flags.upgraded && publicKey.length === 0))) throw new ParseError('invalid public key');
  const userData = bytesOf(map.get('user_data'));
  if (userData !== null && userData.length > MAX_USER_DATA_LENGTH) throw new ParseError('invalid user data');
  const nonce = bytesOf(map.get('nonce'));
  if (nonce !== null && nonce.length > MAX_USER_DATA_LENGTH) throw new ParseError('invalid nonce');
  const pcrs = map.get('pcrs');
  if (pcrs?.t !== 'map' || pcrs.v.length > MAX_PCRS_LENGTH) throw new ParseError('invalid pcrs');
  const pcrVec: Uint8Array[] = [];
  const pcrMap = new Map<number, Uint8Array>();
  for (const [k, v] of pcrs.v) {
    if (k.t !== 'int') throw new ParseError('invalid PCR key');
    const value = bytesOf(v);
    if (value === null || ![32, 48, 64].includes(value.length)) throw new ParseError('invalid PCR value');
    const index = u64Of(k, 'invalid PCR index');
    if (REQUIRED_PCRS.includes(Number(index)) && index < 9n) pcrVec.push(value);
    if (!flags.upgraded) continue;
    if (index > 255n) throw new ParseError('invalid PCR index');
    const i = Number(index);
    if (pcrMap.has(i)) throw new ParseError('duplicate PCR index');
    const required = REQUIRED_PCRS.includes(i);
    if (flags.allNonzeroPcrs) {
      const nonzero = value.some((x) => x !== 0);
      if (i <= 31 && (nonzero || (required && flags.alwaysRequiredPcrs))) pcrMap.set(i, value);
    } else if (required) pcrMap.set(i, value);
  }
  const bundle = map.get('cabundle');
  if (bundle?.t !== 'array') throw new ParseError('invalid cabundle');
  if (bundle.v.length === 0 || bundle.v.length > MAX_CERT_CHAIN_LENGTH) throw new ParseError('invalid ca chain length');
  const cabundle = bundle.v.map((c) => {
    const b = bytesOf(c);
    if (b === null || b.length === 0 || b.length > MAX_CERT_LENGTH) throw new ParseError('invalid ca');
    return b;
  });
  return { moduleId, timestamp, digest, pcrVec, pcrMap, certificate, cabundle, publicKey, userData, nonce };
}

function parseCert(der: Uint8Array): Certificate {
  try {
    return parseCertificate(der);
  } catch {
    throw new VerifyError('invalid certificate');
  }
}

/** `verify_cert_chain`: target first, then CAs towards the root; `nowMs` in ms. */
function verifyCertChain(chain: readonly Uint8Array[], nowMs: bigint): void {
  const root = parseCert(Uint8Array.from(atob(ROOT_CERTIFICATE_B64), (c) => c.charCodeAt(0)));
  const now = Number(BigInt.asIntN(64, nowMs) / 1000n);
  const certs = chain.map(parseCert);
  certs.forEach((cert, i) => {
    const ku = keyUsage(cert);
    if (ku === null || (i === 0 ? !ku.digitalSignature : !ku.keyCertSign)) throw new VerifyError('key usage');
    const bc = basicConstraints(cert);
    if (i !== 0) {
      if (bc === null || !bc.critical || !bc.ca) throw new VerifyError('CA certificate invalid');
      if (bc.pathLen !== null && i - 1 > bc.pathLen) throw new VerifyError('pathLenConstraint');
    } else if (bc !== null && (bc.pathLen !== null || bc.ca)) throw new VerifyError('target is a CA');
    if (!(cert.notBefore <= now && now <= cert.notAfter)) throw new VerifyError('certificate timestamp not valid');
    const issuer = i < certs.length - 1 ? certs[i + 1] : root;
    if (!bytesEq(cert.issuer, issuer.subject)) throw new VerifyError('issuer mismatch');
    if (!verifyCertificateSignature(cert, issuer)) throw new VerifyError('certificate fails to verify');
  });
}

function bytesEq(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** `verify_nitro_attestation`: document signature, then the certificate chain. */
function verifyAttestation(signature: Uint8Array, message: Uint8Array, doc: AttestationDocument, nowMs: bigint): void {
  const n = p384.Point.Fn.ORDER;
  const r = signature.subarray(0, 48).reduce((x, b) => (x << 8n) | BigInt(b), 0n);
  const s = signature.subarray(48).reduce((x, b) => (x << 8n) | BigInt(b), 0n);
  if (r === 0n || s === 0n || r >= n || s >= n) throw new VerifyError('invalid signature');
  const cert = parseCert(doc.certificate);
  if (!isEcPublicKey(cert)) throw new VerifyError('invalid public key');
  let ok: boolean;
  try {
    p384.Point.fromBytes(cert.publicKey);
    ok = p384.verify(signature, sha384(message), cert.publicKey, { prehash: false, lowS: false, format: 'compact' });
  } catch {
    throw new VerifyError('invalid public key');
  }
  if (!ok) throw new VerifyError('signature failed to verify');
  verifyCertChain([doc.certificate, ...[...doc.cabundle].reverse()], nowMs);
}

function option(b: Uint8Array | null): unknown {
  return [vecBoxed(b === null ? [] : [vecU8(b)])];
}

/** The `sui::nitro_attestation` natives. */
export function nitroNatives(env: CryptoEnv): Record<string, NativeFunction> {
  return {
    load_nitro_attestation_internal: (ctx, _t, [attArg, tsArg]) => {
      if (!env.features.enable_nitro_attestation) abort(0);
      const now = bigArg(tsArg);
      const att = bytesArg(attArg);
      ctx.charge(cost(env, 'nitro_attestation_parse_base_cost') + cost(env, 'nitro_attestation_parse_cost_per_byte') * att.length);
      const flags: NitroParseFlags = {
        upgraded: env.features.enable_nitro_attestation_upgraded_parsing,
        allNonzeroPcrs: env.features.enable_nitro_attestation_all_nonzero_pcrs_parsing,
        alwaysRequiredPcrs: env.features.enable_nitro_attestation_always_include_required_pcrs_parsing,
      };
      let parsed: { signature: Uint8Array; message: Uint8Array; doc: AttestationDocument };
      try {
        const cose = parseCose(att);
        const doc = parseAttestationDocument(cose.payload, flags);
        const message = encodeCborArray([{ text: 'Signature1' }, { bytes: cose.protectedHeader }, { bytes: new Uint8Array(0) }, { bytes: cose.payload }]);
        parsed = { signature: cose.signature, message, doc };
      } catch (e) {
        if (e instanceof ParseError) abort(1);
        throw e;
      }
      const { doc } = parsed;
      ctx.charge(cost(env, 'nitro_attestation_verify_base_cost') + cost(env, 'nitro_attestation_verify_cost_per_cert') * doc.cabundle.length);
      try {
        verifyAttestation(parsed.signature, parsed.message, doc, now);
      } catch (e) {
        if (e instanceof VerifyError) abort(2);
        throw e;
      }
      let pcrs: [number, Uint8Array][];
      if (flags.upgraded) pcrs = [...doc.pcrMap.entries()].sort((a, b) => a[0] - b[0]);
      else if (doc.pcrVec.length === REQUIRED_PCRS.length) pcrs = doc.pcrVec.map((v, i) => [REQUIRED_PCRS[i], v]);
      else return abort(3);
      const enc = new TextEncoder();
      return [
        [vecU8(enc.encode(doc.moduleId)), doc.timestamp, vecU8(enc.encode(doc.digest)), vecBoxed(pcrs.map(([i, v]) => [i, vecU8(v)])), option(doc.publicKey), option(doc.userData), option(doc.nonce)],
      ];
    },
  };
}
