/**
 * Judging one task's output against its `.snap` block. A task passes when what it shows
 * agrees on status and objects and values:
 *
 * - failures: the `Error: ...` line (the status or the rejection, in full), and for
 *   execution errors the error kind and command of the second line (upstream's internal
 *   `source` message is not compared);
 * - effects summaries: the event headers (package, module, sender, type) and every object
 *   list (created, mutated, unwrapped, deleted, unwrapped_then_deleted, wrapped,
 *   unchanged_shared, accumulators_written);
 * - anything else (`view-object`, `init`, checkpoints): the whole text.
 *
 * Gas summaries and event contents (BCS, which holds real ids) are compared separately
 * and only reported.
 */

/** The verdict on one task. */
export interface TaskComparison {
  pass: boolean;
  /** Why it failed (a short category, then details). */
  reason: string;
  /** The part that differs, for reports. */
  category: ComparisonCategory | null;
  /** Gas line: `null` when neither side has one. */
  gas: 'match' | 'differs' | null;
  /** Event contents (BCS): `null` when there are no events. */
  eventContents: 'match' | 'differs' | null;
}

/** What differs. */
export type ComparisonCategory =
  | 'unexpected output'
  | 'missing output'
  | 'unexpected error'
  | 'missing error'
  | 'error status differs'
  | 'error kind differs'
  | 'events differ'
  | 'objects differ'
  | 'view differs'
  | 'output differs';

const LIST = /^(events|created|mutated|unwrapped|deleted|unwrapped_then_deleted|wrapped|unchanged_shared|accumulators_written): /;
const EXEC_ERROR = /kind: (.*), source: [\s\S]*, command: (None|Some\(\d+\)) \} \}$/;

function fail(category: ComparisonCategory, detail: string, gas: TaskComparison['gas'] = null, ev: TaskComparison['eventContents'] = null): TaskComparison {
  return { pass: false, reason: detail === '' ? category : `${category}: ${detail}`, category, gas, eventContents: ev };
}

function pass(gas: TaskComparison['gas'] = null, ev: TaskComparison['eventContents'] = null): TaskComparison {
  return { pass: true, reason: '', category: null, gas, eventContents: ev };
}

function isSummary(text: string): boolean {
  const lines = text.split('\n');
  return lines[lines.length - 1].startsWith('gas summary: ') && lines.slice(0, -1).every((l) => LIST.test(l));
}

/** `Event { ... contents: [..] }` without its contents. */
function eventHeaders(line: string): { headers: string; contents: string } {
  const contents: string[] = [];
  const headers = line.replace(/, contents: \[([0-9, ]*)\] \}/g, (_m, c: string) => {
    contents.push(c);
    return ' }';
  });
  return { headers, contents: contents.join('|') };
}

function compareSummaries(expected: string, got: string): TaskComparison {
  const e = expected.split('\n');
  const g = got.split('\n');
  const gasE = e[e.length - 1];
  const gasG = g[g.length - 1];
  const gas = gasE === gasG ? 'match' : 'differs';
  const eLists = new Map(e.slice(0, -1).map((l) => [l.slice(0, l.indexOf(': ')), l.slice(l.indexOf(': ') + 2)]));
  const gLists = new Map(g.slice(0, -1).map((l) => [l.slice(0, l.indexOf(': ')), l.slice(l.indexOf(': ') + 2)]));
  let ev: TaskComparison['eventContents'] = null;
  const eEvents = eLists.get('events');
  const gEvents = gLists.get('events');
  if (eEvents !== undefined || gEvents !== undefined) {
    const a = eventHeaders(eEvents ?? '');
    const b = eventHeaders(gEvents ?? '');
    ev = a.contents === b.contents ? 'match' : 'differs';
    if (a.headers !== b.headers) return fail('events differ', `expected "${eEvents ?? ''}", got "${gEvents ?? ''}"`, gas, ev);
  }
  for (const key of new Set([...eLists.keys(), ...gLists.keys()])) {
    if (key === 'events') continue;
    if (eLists.get(key) !== gLists.get(key)) return fail('objects differ', `${key}: expected "${eLists.get(key) ?? ''}", got "${gLists.get(key) ?? ''}"`, gas, ev);
  }
  return pass(gas, ev);
}

function compareErrors(expected: string, got: string): TaskComparison {
  const [e1, ...eRest] = expected.split('\n');
  const [g1, ...gRest] = got.split('\n');
  if (e1 !== g1) return fail('error status differs', `expected "${e1}", got "${g1}"`);
  const e2 = eRest.join('\n');
  const g2 = gRest.join('\n');
  if (e2 === g2) return pass();
  const em = EXEC_ERROR.exec(e2);
  const gm = EXEC_ERROR.exec(g2);
  if (em !== null && gm !== null) {
    if (em[1] !== gm[1] || em[2] !== gm[2]) return fail('error kind differs', `expected ${em[1]} at ${em[2]}, got ${gm[1]} at ${gm[2]}`);
    return pass();
  }
  return fail('error kind differs', `expected "${e2}", got "${g2}"`);
}

/** Compare a task's output with the snapshot's (both without trailing whitespace). */
export function compareTask(expected: string | undefined, got: string | undefined): TaskComparison {
  const e = expected?.trimEnd();
  const g = got?.trimEnd();
  if (e === g) {
    const gas = e !== undefined && isSummary(e) ? 'match' : null;
    const ev = e !== undefined && /^events: /m.test(e) ? 'match' : null;
    return pass(gas, ev);
  }
  if (e === undefined) return fail('unexpected output', g ?? '');
  if (g === undefined) return fail('missing output', e);
  const eErr = e.startsWith('Error: ');
  const gErr = g.startsWith('Error: ');
  if (eErr && !gErr) return fail('missing error', `expected "${e.split('\n')[0]}"`);
  if (!eErr && gErr) return fail('unexpected error', g.split('\n')[0]);
  if (eErr) return compareErrors(e, g);
  if (isSummary(e) && isSummary(g)) return compareSummaries(e, g);
  return fail(e.startsWith('Owner: ') ? 'view differs' : 'output differs', '');
}

/** The expected output of a task from its snapshot block (a `programmable` block starts with the task's `//>` lines). */
export function expectedOutput(block: string | undefined, body: string | undefined, echoesBody: boolean): string | undefined {
  if (block === undefined) return undefined;
  if (!echoesBody || body === undefined) return block;
  const echoed = body.trim();
  if (block === echoed) return '';
  if (block.startsWith(echoed + '\n')) return block.slice(echoed.length + 1);
  return block;
}
