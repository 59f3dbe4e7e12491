import { describe, expect, it } from 'vitest';
import { describeWithFixtures, FIXTURES_ROOT } from '../../../test-support/fixtures.js';
import { availableProtocolVersions, loadProtocolConfig } from '../src/config/protocol-config.js';
import { DEFAULT_VM_LIMITS, limitsFromProtocolConfig, VM_LIMIT_STATUS, VM_STATUS_CODES, VECTOR_SUB_STATUS } from '../src/config/vm-limits.js';

describe('VM limit statuses', () => {
  it('maps each runtime limit to the upstream status code', () => {
    expect(VM_LIMIT_STATUS.maxCallDepth).toEqual({ status: 'CALL_STACK_OVERFLOW', code: 4021 });
    expect(VM_LIMIT_STATUS.maxOperandStackSize).toEqual({ status: 'EXECUTION_STACK_OVERFLOW', code: 4020 });
    expect(VM_LIMIT_STATUS.maxValueDepth.code).toBe(VM_STATUS_CODES.VM_MAX_VALUE_DEPTH_REACHED);
    expect(VM_LIMIT_STATUS.maxVectorLength).toEqual({ status: 'VECTOR_OPERATION_ERROR', code: 4018, subStatus: VECTOR_SUB_STATUS.VEC_SIZE_LIMIT_REACHED });
    expect(VM_LIMIT_STATUS.maxTypeDepth.code).toBe(4024);
    expect(VM_LIMIT_STATUS.maxTypeInstantiationNodes.code).toBe(4029);
  });
});

describeWithFixtures('VM limits from the protocol config', ['fixtures', 'protocol-config'], () => {
  it('defaults are the latest mainnet version', () => {
    const latest = loadProtocolConfig(FIXTURES_ROOT, 135);
    expect(limitsFromProtocolConfig(latest)).toEqual(DEFAULT_VM_LIMITS);
  });

  it('reads every version; optional limits appear when upstream added them', () => {
    for (const v of availableProtocolVersions(FIXTURES_ROOT)) {
      const limits = limitsFromProtocolConfig(loadProtocolConfig(FIXTURES_ROOT, v));
      expect(limits.protocolVersion).toBe(v);
      expect(limits.maxCallDepth).toBe(1024);
      expect(limits.maxVectorLength).toBe(262_144);
      expect(limits.maxValueDepth).toBe(v >= 11 ? 128 : undefined);
      expect(limits.maxTypeToLayoutNodes).toBe(v >= 60 ? 512 : 256);
      expect(limits.verifier.maxIdentifierLength).toBe(v >= 9 ? 128 : undefined);
    }
  });
});
