import { canonicalAddress } from '@smi/bytecode';
import { describe, expect, it } from 'vitest';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import { smi } from './support/run-cli.js';

async function callJson(...argv: string[]): Promise<Record<string, unknown>> {
  const r = await smi('call', ...argv, '--json');
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout.trim().split('\n')).toHaveLength(1);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

describe('smi call: usage', () => {
  it('--help', async () => {
    const r = await smi('call', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--type-args/);
  });
});

describeWithFixtures('smi call on the framework', ['fixtures', 'framework'], () => {
  it('returns typed values with BCS', async () => {
    expect(await callJson('0x1::u64::pow', '--args', '2', '10')).toEqual({
      status: 'success',
      return_values: [{ type: 'u64', bcs: '0004000000000000', value: '1024' }],
      gas_used: expect.any(Number) as number,
    });
  });

  it('reads vector<u8> as hex or number array, strings as JSON strings', async () => {
    const a = await callJson('0x1::vector::length', '--type-args', 'u8', '--args', '"0x0102"');
    expect((a.return_values as { value: string }[])[0].value).toBe('2');
    const b = await callJson('0x1::vector::length', '--type-args', 'u8', '--args', '[1,2,3]');
    expect((b.return_values as { value: string }[])[0].value).toBe('3');
    const s = await callJson('0x1::string::length', '--args', '"héllo"');
    expect((s.return_values as { value: string }[])[0].value).toBe('6');
  });

  it('reports aborts with code, location and instruction', async () => {
    const r = await callJson('0x1::option::extract', '--type-args', 'u64', '--args', 'null');
    expect(r).toEqual({
      status: 'aborted',
      abort_code: '262145',
      location: '0x0000000000000000000000000000000000000000000000000000000000000001::option::extract',
      instruction: expect.any(Number) as number,
    });
  });

  it('a missing type argument, or a number JSON cannot hold, is bad input (exit 2) that says what was typed', async () => {
    const t = await smi('call', '0x1::vector::reverse', '--args', '"0x01"', '--json');
    expect(t.code).toBe(2);
    expect(JSON.parse(t.stdout)).toMatchObject({ error_code: 'TYPE_ARGUMENT_COUNT', message: '0x1::vector::reverse takes 1 type argument (--type-args), got 0' });
    const n = await smi('call', '0x1::u64::max', '--args', '3', '9007199254740993', '--json');
    expect(n.code).toBe(2);
    // The second argument, as typed (JSON would have made it 9007199254740992).
    expect(JSON.parse(n.stdout)).toMatchObject({ error_code: 'INVALID_ARGUMENT', message: expect.stringMatching(/^argument 2 \(u64\): 9007199254740993 is above 2\^53 .*quote it/) });
    expect((await callJson('0x1::u64::max', '--args', '3', '"9007199254740993"')).return_values).toMatchObject([{ value: '9007199254740993' }]);
  });

  it('reports arithmetic errors as status error', async () => {
    const r = await callJson('0x1::u64::pow', '--args', '2', '64');
    expect(r.status).toBe('error');
    expect(r.error_code).toBe('ARITHMETIC_ERROR');
  });

  it('bad input exits 2 with one line', async () => {
    for (const argv of [
      ['0x1::u8::max', '--args', '300', '1'],
      ['0x1::u8::max', '--args', '1'],
      ['0x1::u8::max', '--args', 'nope', '1'],
      ['0x1::no_such_module::f'],
      ['0x1::u8::no_such_function'],
      ['not-a-target'],
      ['0x1::vector::length', '--type-args', 'vector<', '--args', '[]'],
    ]) {
      const r = await smi('call', ...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('runs corpus packages (--corpus)', async () => {
    const lending = fixturePath('corpus', '0xb2345915de1f9bd661e9ab27eb27e376cdf6391359ea64fbfdb4550b092c1aa0');
    const ray = 10n ** 27n;
    const t = await callJson('0xb2345915de1f9bd661e9ab27eb27e376cdf6391359ea64fbfdb4550b092c1aa0::ray_math::ray_mul', '--args', `"${2n * ray}"`, `"${3n * ray}"`, '--corpus', lending);
    // ray_mul(a, b) = (a * b + ray / 2) / ray
    expect((t.return_values as { value: string }[])[0].value).toBe(String((2n * ray * 3n * ray + ray / 2n) / ray));
    const overflow = await callJson('0xb2345915de1f9bd661e9ab27eb27e376cdf6391359ea64fbfdb4550b092c1aa0::ray_math::ray_mul', '--args', `"${1n << 255n}"`, '"3"', '--corpus', lending);
    expect(overflow).toMatchObject({ status: 'aborted', abort_code: '1101' });
    const missing = await smi(
      'call',
      '0x1eabed72c53feb3805120a081dc15963c204dc8d091542592abaf7a35689b2fb::clmm_math::get_delta_a',
      '--args',
      '"18446744073709551616"',
      '"36893488147419103232"',
      '1000000',
      'true',
      '--corpus',
      fixturePath('corpus', '0x1eabed72c53feb3805120a081dc15963c204dc8d091542592abaf7a35689b2fb'),
      '--json',
    );
    // Cetus links integer-mate, which the fixture corpus lacks: the call is reported, naming what is missing.
    expect(missing.code).toBe(0);
    const cetus = '0x1eabed72c53feb3805120a081dc15963c204dc8d091542592abaf7a35689b2fb';
    const mate = '0x714a63a0dba6da4f017b42d5d0fb78867f18bcde904868e51d951a5a6f5b7f57';
    expect(JSON.parse(missing.stdout)).toMatchObject({ status: 'error', error_code: 'MISSING_DEPENDENCY' });
    expect((JSON.parse(missing.stdout) as { message: string }).message).toContain(`cannot link ${cetus}::clmm_math: package ${mate} is not loaded`);
    // The VM links eagerly: a function that never reaches integer-mate does not run either.
    const constant = await smi('call', `${cetus}::tick_math::max_sqrt_price`, '--corpus', fixturePath('corpus', cetus), '--json');
    expect(constant.code).toBe(0);
    expect((JSON.parse(constant.stdout) as { message: string }).message).toContain(`used by ${cetus}::tick_math`);
  });
});

describeWithFixtures('smi conformance traces', ['fixtures', 'vm-traces'], () => {
  it('--json prints the suite summary', async () => {
    const r = await smi('conformance', 'traces', '--json', '--dir', fixturePath('fixtures', 'vm-traces'));
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout) as { suite: string; tasks: number; passed: number; failed: number; skipped: number; failures: unknown[]; not_executable: unknown[] };
    expect(s).toMatchObject({ suite: 'traces', files: 31, tasks: 27, passed: 27, failed: 0, skipped: 0, failures: [] });
    expect(s.not_executable).toHaveLength(4);
  });
  it('unknown suite: exit 2', async () => {
    expect((await smi('conformance', 'nope')).code).toBe(2);
  });
});

describeWithFixtures('smi call --protocol-version', ['fixtures', 'protocol-config'], () => {
  it('applies the limits of the chosen protocol version, and rejects unknown versions', async () => {
    const ok = await smi('call', '0x1::u64::pow', '--args', '2', '3', '--protocol-version', '100', '--json');
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ status: 'success' });
    const bad = await smi('call', '0x1::u64::pow', '--args', '2', '3', '--protocol-version', '99999');
    expect(bad.code).toBe(2);
  });
});

describeWithFixtures('smi call with the Sui runtime', ['fixtures', 'framework'], () => {
  it('0x2 natives run: hashes, sender, fresh ids; created objects and events are reported', async () => {
    const h = await callJson('0x2::hash::keccak256', '--args', `"0x${Buffer.from('hello world!').toString('hex')}"`);
    expect((h.return_values as { value: string }[])[0].value).toBe('0x57caa176af1ac0433c5df30e8dabcd2ec1af1e92a26eced5f719b88458777cd6');
    const s = await callJson('0x2::tx_context::sender', '--sender', '0xabc');
    expect((s.return_values as { value: string }[])[0].value).toBe(canonicalAddress('0xabc'));
    const t = await callJson('0x2::table::new', '--type-args', 'u64', 'u64');
    const objects = t.objects as { id: string; status: string; owner: unknown }[];
    expect(objects).toHaveLength(1);
    expect(objects[0]).toMatchObject({ status: 'created', owner: null });
    const kiosk = await callJson('0x2::kiosk::default');
    const written = kiosk.objects as { status: string; type?: string; owner: { $kind: string } | null }[];
    expect(written.some((o) => o.type?.endsWith('::kiosk::Kiosk') && o.owner?.$kind === 'Shared')).toBe(true);
    expect(written.some((o) => o.type?.endsWith('::kiosk::KioskOwnerCap') && o.owner?.$kind === 'AddressOwner')).toBe(true);
  });
  it('--permissive-crypto is recorded in the output', async () => {
    const r = await callJson('0x2::ed25519::ed25519_verify', '--args', '"0x00"', '"0x00"', '"0x00"', '--permissive-crypto');
    expect(r).toMatchObject({ status: 'success', permissive_crypto: true });
    expect((r.return_values as { value: boolean }[])[0].value).toBe(true);
    const strict = await callJson('0x2::ed25519::ed25519_verify', '--args', '"0x00"', '"0x00"', '"0x00"');
    expect((strict.return_values as { value: boolean }[])[0].value).toBe(false);
  });
});
