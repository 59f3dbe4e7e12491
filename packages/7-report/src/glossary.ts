/**
 * The report's glossary: the tiers, the row statuses, the stages (A1–A5, B1–B2), the E-codes
 * (from `@smi/inhabit`'s taxonomy, so a new code is listed the day it exists), the abort
 * categories, and the Phase I / II outcomes, each with what it means; the codes of the data
 * shown that are none of these (a package the reader refused: `BAD_MAGIC`, …) are listed too.
 */
import { type Outcome, OUTCOMES } from '@smi/harness';
import { ABORT_CATEGORIES, type AbortCategory, ERROR_CODES, type ErrorCode, type RowStatus, type Stage, STAGE_CODES } from '@smi/inhabit';
import type { BenchmarkView } from './benchmark-view.js';
import { esc, int } from './html.js';

/** One entry: the term, what it means, and (codes) how many rows of the data shown have it. */
export interface GlossaryEntry {
  term: string;
  meaning: string;
  group?: string;
  count?: number;
}

/** The tiers. */
export const TIERS: readonly GlossaryEntry[] = [
  {
    term: 'Tier A',
    meaning:
      'Static: every parameter of the function has a value or a plan to build one (pure values round-trip through BCS; objects from the state, a constructor chain, a setup transaction, or synthesized). No transaction runs.',
  },
  { term: 'Tier B', meaning: 'Dynamic: the function ran in a real transaction in the sandbox (after its constructor chain and setup transactions) without aborting. Its results are not checked.' },
  { term: 'real hit', meaning: 'A Tier B hit with Sui’s strict checks, on inputs not synthesized, without permissive crypto; each function counted once per original package.' },
  { term: 'real structured hit', meaning: 'A real hit whose inputs include an object or struct value (not only pure values, and not a function without arguments).' },
  { term: 'loose', meaning: 'Figures over every row: every Tier A or Tier B hit, duplicates (older versions of a package) and relaxed or synthesized hits included.' },
];

/** The row statuses (`status` of a benchmark-local row). */
export const STATUSES: Readonly<Record<RowStatus, string>> = {
  tier_b_hit: 'The function ran in a transaction (Tier B).',
  tier_a_hit: 'Every parameter has a plan (Tier A), but the transaction failed (B1, B2) or did not run (an object the state does not hold, --tier-a-only).',
  miss: 'A static stage (A1–A5) failed: no plan for the call.',
  static_pass: 'With --static-only: the static checks (A1, A2, type-argument bounds) passed; nothing was planned or run.',
};

/** The stages, as the planner and the Tier B runner check them. */
export const STAGES: Readonly<Record<Stage, string>> = {
  A1: 'The target resolves: its module links (the packages it needs are loaded) and it is public or entry.',
  A2: 'Every parameter type has a layout (its modules are loaded) and every datatype instantiation meets its ability constraints.',
  A3: 'Every parameter has a value or a construction plan (a pure value that round-trips through BCS, an object of the state, a constructor chain, a setup transaction).',
  A4: 'Object arguments are typed as a transaction may pass them (owned, shared or immutable against &, &mut or by value; Clock and Random only by &).',
  A5: 'The transaction is consistent: type arguments meet their bounds, every argument is of a kind a transaction can pass (no signer, no TxContext by value).',
  B1: 'Tier B setup: building the inputs (constructor chain, setup transactions, synthesized objects) failed before the target ran.',
  B2: 'Tier B: the target itself aborted or failed in its transaction.',
};

/** The abort categories of a failed transaction. */
export const ABORT_CATEGORY_MEANINGS: Readonly<Record<AbortCategory, string>> = {
  assertion_failed: 'A Move abort of the package’s own code (an assert! or abort with a code).',
  object_error: 'An object error: a framework object, dynamic field or table module aborted, or the transaction’s objects were wrong (missing, shared or owned as not expected).',
  arithmetic_error: 'Arithmetic overflow, underflow or division by zero.',
  vector_bounds_error: 'A vector index out of bounds (std::vector aborts).',
  type_error: 'A type or argument error of the transaction (a mismatched or undecodable argument, an unused value, the verifier).',
  out_of_gas: 'The transaction ran out of gas.',
  unsupported_native: 'A native function the sandbox does not support.',
  unknown: 'Any other execution error.',
};

/** The outcomes of a Phase I / II package. */
export const OUTCOME_MEANINGS: Readonly<Record<Outcome, string>> = {
  correct: 'The answer was scored and exactly right.',
  wrong: 'The answer was scored and not exactly right (it may still score partly).',
  unparseable: 'The model answered, but the answer could not be read.',
  limit: 'A limit fired (time, tokens, calls) before an answer.',
  model_error: 'The model or its endpoint failed.',
  infra_error: 'SMI’s own failure: the package could not be read or analysed.',
};

const sum = (views: readonly BenchmarkView[], pick: (v: BenchmarkView) => Record<string, number>, key: string): number => views.reduce((s, v) => s + (pick(v)[key] ?? 0), 0);

/** The error codes the data has that are not E-codes (a package the reader refused), sorted. */
export function otherCodes(views: readonly BenchmarkView[]): string[] {
  const codes = new Set(views.flatMap((v) => Object.keys(v.summary.by_error_code)));
  return [...codes].filter((c) => !(c in ERROR_CODES)).sort();
}

/** The glossary's sections: benchmark-local terms when there are benchmark inputs, outcomes when there are phase runs. */
export function glossarySections(views: readonly BenchmarkView[], phaseRuns: boolean): { title: string; entries: GlossaryEntry[] }[] {
  const out: { title: string; entries: GlossaryEntry[] }[] = [];
  const counted = views.length > 0;
  if (counted) {
    out.push({ title: 'Tiers and rates', entries: [...TIERS] });
    out.push({
      title: 'Row status',
      entries: Object.entries(STATUSES).map(([term, meaning]) => ({
        term,
        meaning,
        count: views.reduce((n, v) => n + [...v.rows.values()].reduce((k, rows) => k + rows.filter((r) => r.status === term).length, 0), 0),
      })),
    });
    out.push({
      title: 'Failure stages',
      entries: (Object.entries(STAGES) as [Stage, string][]).map(([term, meaning]) => ({
        term,
        meaning: `${meaning} Code when nothing more precise is known: ${STAGE_CODES[term]}.`,
        count: sum(views, (v) => v.summary.by_stage, term),
      })),
    });
    out.push({
      title: 'Error codes',
      entries: [
        ...(Object.entries(ERROR_CODES) as [ErrorCode, (typeof ERROR_CODES)[ErrorCode]][]).map(([term, c]) => ({
          term,
          group: c.phase,
          meaning: `${c.description[0].toUpperCase()}${c.description.slice(1)}.`,
          count: sum(views, (v) => v.summary.by_error_code, term),
        })),
        ...otherCodes(views).map((term) => ({
          term,
          group: 'Package',
          meaning: `The target package could not be read: the bytecode reader’s status ${term} (the row has no function).`,
          count: sum(views, (v) => v.summary.by_error_code, term),
        })),
      ],
    });
    out.push({ title: 'Abort categories', entries: ABORT_CATEGORIES.map((term) => ({ term, meaning: ABORT_CATEGORY_MEANINGS[term], count: sum(views, (v) => v.summary.by_abort_category, term) })) });
  }
  if (phaseRuns) out.push({ title: 'Phase I / II outcomes', entries: OUTCOMES.map((term) => ({ term, meaning: OUTCOME_MEANINGS[term] })) });
  return out;
}

/** The glossary section of the page. */
export function glossaryHtml(views: readonly BenchmarkView[], phaseRuns: boolean): string {
  const sections = glossarySections(views, phaseRuns);
  const blocks = sections.map((s) => {
    const hasCount = s.entries.some((e) => e.count !== undefined);
    const hasGroup = s.entries.some((e) => e.group !== undefined);
    const rows = s.entries
      .map((e) => {
        const cls = e.count === 0 ? ' class="absent"' : '';
        return `<tr${cls} data-term="${esc(e.term)}"><th>${esc(e.term)}</th>${hasGroup ? `<td>${esc(e.group ?? '')}</td>` : ''}<td>${esc(e.meaning)}</td>${hasCount ? `<td class="num">${e.count === undefined ? '' : int(e.count)}</td>` : ''}</tr>`;
      })
      .join('');
    const head = `<tr><th>term</th>${hasGroup ? '<th>phase</th>' : ''}<th>meaning</th>${hasCount ? '<th class="num">rows here</th>' : ''}</tr>`;
    return `<h3>${esc(s.title)}</h3><table class="glossary"><thead>${head}</thead><tbody>${rows}</tbody></table>`;
  });
  const note = views.length > 0 ? '<p class="note">Every stage, code and category that a row can carry; those no row of this report has are greyed.</p>' : '';
  return `<section class="block" id="glossary"><h2>Glossary</h2>${note}${blocks.join('\n')}</section>`;
}
