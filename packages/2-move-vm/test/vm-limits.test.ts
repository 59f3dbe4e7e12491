import { describe, expect, it } from 'vitest';
import { describeWithFixtures, FIXTURES_ROOT } from '../../../test-support/fixtures.js';
import { availableProtocolVersions, loadProtocolConfig } from '../src/config/protocol-config.js';
import { DEFAULT_VM_LIMITS, limitsFromProtocolConfig, VM_LIMIT_STATUS, VM_STATUS_CODES, VECTOR_SUB_STATUS } from '../src/config/vm-limits.js';
import { checkLayoutNodes, layoutNodeCount, layoutNodeRule } from '../src/types/layout-nodes.js';
import { TypeTable } from '../src/types/runtime-type.js';

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

describeWithFixtures('layout node limit (max_type_to_layout_nodes)', ['fixtures', 'protocol-config'], () => {
  it('per protocol: the limit, whether variants count, the status', () => {
    const rule = (v: number) => layoutNodeRule(loadProtocolConfig(FIXTURES_ROOT, v));
    expect(rule(58)).toEqual({ limit: 256, variantNodes: false, checksLastNode: false, status: 'TOO_MANY_TYPE_NODES' });
    expect(rule(60)).toEqual({ limit: 512, variantNodes: false, checksLastNode: false, status: 'TOO_MANY_TYPE_NODES' });
    expect(rule(72)).toEqual({ limit: 512, variantNodes: true, checksLastNode: true, status: 'TOO_MANY_TYPE_NODES' });
    expect(rule(119)).toEqual({ limit: 512, variantNodes: true, checksLastNode: true, status: 'VM_MAX_TYPE_NODES_REACHED' });
  });

  it('older VMs check each node before counting it: one node more passes', () => {
    const table = new TypeTable();
    // vector^k<u8> has k + 1 layout nodes.
    const nested = (nodes: number) => {
      let t = table.u8;
      for (let i = 1; i < nodes; i++) t = table.vector(t);
      return t;
    };
    const old = { limit: 256, variantNodes: false, checksLastNode: false, status: 'TOO_MANY_TYPE_NODES' } as const;
    expect(layoutNodeCount(table, nested(257), false)).toBe(257);
    expect(() => checkLayoutNodes(table, nested(257), old)).not.toThrow();
    expect(() => checkLayoutNodes(table, nested(258), old)).toThrow(/TOO_MANY_TYPE_NODES/);
    const latest = { limit: 256, variantNodes: true, checksLastNode: true, status: 'VM_MAX_TYPE_NODES_REACHED' } as const;
    expect(() => checkLayoutNodes(table, nested(256), latest)).not.toThrow();
    expect(() => checkLayoutNodes(table, nested(257), latest)).toThrow(/VM_MAX_TYPE_NODES_REACHED/);
  });
});
