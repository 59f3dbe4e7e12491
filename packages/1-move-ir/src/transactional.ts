/**
 * The upstream transactional test format (`move-transactional-test-runner`): splitting a
 * test file into `//#` tasks exactly as upstream's `taskify` does, rendering a transcript
 * in the `.snap` wording (`processed N tasks`, `task K, lines A-B:`, `Error: ...`),
 * reading `.snap` files back, and comparing a run with a snapshot task by task.
 */
import { TaskError } from './errors.js';

/** One `//#` task of a transactional test file. */
export interface TransactionalTask {
  /** Task number, from 0 (the `K` of `task K`). */
  number: number;
  /** The command name: `print-bytecode`, `publish`, `run`, `init`, ... */
  command: string;
  /** The words after the command name (command lines joined, split on ASCII whitespace). */
  args: string[];
  /** Upstream's `task_text`: `//#` + the command text (trailing spaces kept). */
  taskText: string;
  /** 1-based line of the first `//#` line. */
  startLine: number;
  /** 1-based line of the last `//#` line of the task. */
  commandLinesStop: number;
  /** 1-based line of the last non-blank line of the task. */
  stopLine: number;
  /**
   * The text block upstream hands to the compiler: `commandLinesStop` empty lines, then
   * the task's non-blank lines, joined with `\n`. `undefined` when the task has no text.
   */
  body: string | undefined;
}

const WHITESPACE = /^\s*$/u;
const COMMENT = /^\s*\/\/(?:\s|[\x20-\x22]|[\x24-\x7e])/u;
const COMMAND = /^\s*\/\/#\s*(.*)$/u;

/** Lines as Rust's `BufRead::lines` yields them (`\n` or `\r\n` endings). */
function rustLines(text: string): string[] {
  const lines = text.split('\n');
  const last = lines.pop() ?? '';
  const out = lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  if (last !== '') out.push(last);
  return out;
}

/**
 * Splits a transactional test file into its tasks (upstream `taskify`).
 *
 * @throws {TaskError} when text comes before the first `//#` command.
 */
export function parseTransactionalTestFile(text: string): TransactionalTask[] {
  const lines = rustLines(text).map((line, i) => ({ n: i + 1, line }));
  let start = 0;
  while (start < lines.length && (WHITESPACE.test(lines[start].line) || COMMENT.test(lines[start].line))) start++;
  const buckets: { commands: { n: number; text: string }[]; text: { n: number; line: string }[] }[] = [];
  let cur: (typeof buckets)[number] = { commands: [], text: [] };
  let inCommand = true;
  for (const { n, line } of lines.slice(start)) {
    const m = COMMAND.exec(line);
    if (m !== null) {
      if (!inCommand) {
        buckets.push(cur);
        cur = { commands: [], text: [] };
        inCommand = true;
      }
      if (m[1] !== '') cur.commands.push({ n, text: m[1] });
    } else if (WHITESPACE.test(line)) {
      inCommand = false;
    } else {
      inCommand = false;
      cur.text.push({ n, line });
    }
  }
  buckets.push(cur);
  if (buckets.length === 1 && buckets[0].commands.length === 0 && buckets[0].text.length === 0) return [];

  return buckets.map((b, number) => {
    if (b.commands.length === 0) throw new TaskError('No initial command');
    const startLine = b.commands[0].n;
    const commandLinesStop = b.commands[b.commands.length - 1].n;
    const commandText = b.commands.map((c) => ` ${c.text}`).join('');
    const words = commandText.split(/[ \t\n\r\f]+/).filter((w) => w !== '');
    const bodyLines = [...Array.from({ length: commandLinesStop }, () => ''), ...b.text.map((t) => t.line)];
    const body = bodyLines.every((l) => WHITESPACE.test(l)) ? undefined : bodyLines.join('\n');
    return {
      number,
      command: words[0] ?? '',
      args: words.slice(1),
      taskText: `//#${commandText}`,
      startLine,
      commandLinesStop,
      stopLine: b.text.length === 0 ? commandLinesStop : b.text[b.text.length - 1].n,
      body,
    };
  });
}

/** The output of one task of a run (`undefined`: the task printed nothing). */
export interface TaskOutcome {
  task: TransactionalTask;
  output: string | undefined;
}

/** `line N` or `lines A-B`, as in task headers. */
export function taskLineRange(startLine: number, stopLine: number): string {
  return startLine === stopLine ? `line ${startLine}` : `lines ${startLine}-${stopLine}`;
}

/** The transcript upstream writes for a run (the `.snap` body without its front matter). */
export function renderTranscript(outcomes: readonly TaskOutcome[]): string {
  const n = outcomes.length;
  let out = `processed ${n} task${n > 1 ? 's' : ''}\n`;
  for (const { task, output } of outcomes) {
    if (output === undefined) continue;
    out += `\ntask ${task.number}, ${taskLineRange(task.startLine, task.stopLine)}:\n${task.taskText}\n${output}\n`;
  }
  return out;
}

/** One task block of a `.snap` file. */
export interface SnapshotTask {
  number: number;
  /** `line N` or `lines A-B`. */
  lines: string;
  taskText: string;
  /** The task's output, trailing newlines removed. */
  output: string;
}

/** A parsed `.snap` file. */
export interface ParsedSnapshot {
  /** The `N` of `processed N tasks`. */
  processed: number;
  tasks: SnapshotTask[];
}

/**
 * Reads an insta `.snap` file written by the transactional test runner.
 *
 * @throws {TaskError} when the text is not such a snapshot.
 */
export function parseSnapshot(text: string): ParsedSnapshot {
  let body = text.replace(/\r\n/g, '\n');
  if (body.startsWith('---\n')) {
    const end = body.indexOf('\n---\n', 3);
    if (end < 0) throw new TaskError('snapshot front matter is not closed');
    body = body.slice(end + 5);
  }
  const head = /^processed (\d+) tasks?\n?/.exec(body);
  if (head === null) throw new TaskError('snapshot does not start with "processed N tasks"');
  const header = /^task (\d+), (lines? \d+(?:-\d+)?):$/gm;
  const marks: { index: number; end: number; number: number; lines: string }[] = [];
  for (let m = header.exec(body); m !== null; m = header.exec(body)) {
    marks.push({ index: m.index, end: m.index + m[0].length + 1, number: Number(m[1]), lines: m[2] });
  }
  const tasks = marks.map((mark, i) => {
    const block = body.slice(mark.end, i + 1 < marks.length ? marks[i + 1].index : body.length);
    const nl = block.indexOf('\n');
    const taskText = nl < 0 ? block : block.slice(0, nl);
    const output = nl < 0 ? '' : block.slice(nl + 1).replace(/\s+$/, '');
    return { number: mark.number, lines: mark.lines, taskText, output };
  });
  return { processed: Number(head[1]), tasks };
}

/** The verdict on one task of a run against a snapshot. */
export interface TaskComparison {
  number: number;
  matched: boolean;
  /** Why it did not match (empty when it did). */
  reason: string;
  expected: string | undefined;
  actual: string | undefined;
}

/**
 * Compares a run with a snapshot task by task: a task matches when both print nothing,
 * or both print the same header (line range, task text) and the same output (trailing
 * whitespace ignored).
 */
export function compareWithSnapshot(outcomes: readonly TaskOutcome[], snapshot: ParsedSnapshot): TaskComparison[] {
  const byNumber = new Map(snapshot.tasks.map((t) => [t.number, t]));
  return outcomes.map(({ task, output }) => {
    const snap = byNumber.get(task.number);
    const actual = output?.replace(/\s+$/, '');
    const expected = snap?.output;
    let reason = '';
    if (snap === undefined && actual !== undefined) reason = 'unexpected output (snapshot has none)';
    else if (snap !== undefined && actual === undefined) reason = 'no output (snapshot has some)';
    else if (snap !== undefined && actual !== undefined) {
      const lines = taskLineRange(task.startLine, task.stopLine);
      if (snap.lines !== lines) reason = `header "${lines}" differs from snapshot "${snap.lines}"`;
      else if (snap.taskText !== task.taskText) reason = `task text "${task.taskText}" differs from "${snap.taskText}"`;
      else if (snap.output !== actual) reason = 'output differs';
    }
    return { number: task.number, matched: reason === '', reason, expected, actual };
  });
}
