/**
 * A small benchmark-local rows file with known headline figures, for the report tests.
 *
 * NEW (5 rows, an upgrade of OLD): a real structured hit, a real pure-only hit, a relaxed
 * hit, a synthesized hit, a miss. OLD (2 rows, both `duplicate_of` NEW): a real structured
 * hit and a Tier A hit, neither counted in the headline. OTHER (3 rows): a real no-args
 * hit, a hit with permissive crypto, a Tier A hit.
 *
 * Rows 10, functions counted once 8; real hits 3 (37.5%), real structured 1 (12.5%);
 * loose Tier A 9 (90%), Tier B 7 (70%).
 */
import type { BenchmarkRow } from '@smi/inhabit';

export const NEW = '0x' + 'a1'.repeat(32);
export const OLD = '0x' + 'a0'.repeat(32);
export const OTHER = '0x' + 'b2'.repeat(32);

type Hit = { checks?: 'strict' | 'relaxed'; provenance?: 'chain' | 'init_state' | 'synthesized'; hit_class?: 'structured' | 'pure_only' | 'no_args'; permissive_crypto?: true; duplicate_of?: string };

function hit(pkg: string, fn: string, h: Hit): BenchmarkRow {
  const row: BenchmarkRow = { target_package: pkg, target_module: 'm', target_function: fn, status: 'tier_b_hit' };
  if (h.duplicate_of !== undefined) row.duplicate_of = h.duplicate_of;
  row.tier_a_details = { resolved_params: [], bcs_roundtrip_verified: true, has_object_params: false };
  row.tier_b_details = { execution_success: true, path: 'ptb', attempts: 1, value_profile: 'typical', checks: 'strict' };
  if (h.checks !== undefined) row.tier_b_details.checks = h.checks;
  row.provenance = h.provenance ?? 'chain';
  if (h.hit_class !== undefined) row.hit_class = h.hit_class;
  if (h.permissive_crypto) row.permissive_crypto = true;
  row.transactions = [];
  return row;
}

function tierA(pkg: string, fn: string, duplicateOf?: string): BenchmarkRow {
  return {
    target_package: pkg,
    target_module: 'm',
    target_function: fn,
    ...(duplicateOf !== undefined ? { duplicate_of: duplicateOf } : {}),
    status: 'tier_a_hit',
    failure_stage: 'B2',
    failure_reason: 'aborted',
    tier_a_details: { resolved_params: [], bcs_roundtrip_verified: true, has_object_params: true },
    tier_b_details: { execution_success: false, error: 'aborted', path: 'ptb', attempts: 1, value_profile: 'typical', checks: 'strict' },
    error_code: 'E403',
    abort: { code: '1', location: `${pkg}::m::${fn}`, category: 'assertion_failed' },
    provenance: 'chain',
    hit_class: 'structured',
  };
}

/** The rows, in file order. */
export function headlineRows(): BenchmarkRow[] {
  return [
    hit(NEW, 'real_structured', { hit_class: 'structured' }),
    hit(NEW, 'real_pure', { hit_class: 'pure_only' }),
    hit(NEW, 'relaxed', { hit_class: 'structured', checks: 'relaxed' }),
    hit(NEW, 'synthesized', { hit_class: 'structured', provenance: 'synthesized' }),
    { target_package: NEW, target_module: 'm', target_function: 'missed', status: 'miss', failure_stage: 'A3', failure_reason: 'no constructor', error_code: 'E301' },
    hit(OLD, 'real_structured', { hit_class: 'structured', duplicate_of: NEW }),
    tierA(OLD, 'aborts', NEW),
    hit(OTHER, 'no_args', { hit_class: 'no_args', provenance: 'init_state' }),
    hit(OTHER, 'permissive', { hit_class: 'structured', permissive_crypto: true }),
    tierA(OTHER, 'aborts'),
  ];
}

/** The same rows as an older writer wrote them: no `hit_class`, no `duplicate_of`, and one hit without `checks`. */
export function oldHeadlineRows(): BenchmarkRow[] {
  return headlineRows().map((r) => {
    const { hit_class: _class, duplicate_of: _dup, ...rest } = r;
    if (rest.target_function === 'no_args' && rest.tier_b_details !== undefined) {
      const { checks: _checks, ...details } = rest.tier_b_details;
      return { ...rest, tier_b_details: details as typeof rest.tier_b_details };
    }
    return rest;
  });
}
