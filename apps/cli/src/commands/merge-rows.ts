/**
 * `smi merge-rows`: join the rows of `benchmark-local --shard K/N` parts (given in order,
 * part 1 first) into the rows one run writes, byte for byte.
 */
import { type BenchmarkRow, mergeShardRows, rowLine } from '@smi/inhabit';
import { defineCommand } from '../command.js';
import { UsageError } from '../errors.js';
import { jsonLine, readInput, writeOutput } from '../io.js';
import { header } from './registry.js';
import { errorMessage } from '@smi/bytecode';

interface MergeRowsArgs {
  parts: string[];
  out: string;
}

function parseRows(label: string, text: string): BenchmarkRow[] {
  return text
    .split('\n')
    .map((line, i) => ({ line, i }))
    .filter(({ line }) => line.trim() !== '')
    .map(({ line, i }) => {
      let row: unknown;
      try {
        row = JSON.parse(line);
      } catch (e) {
        throw new UsageError(`${label}:${i + 1}: not JSON (${errorMessage(e)})`, 'INVALID_JSON');
      }
      const r = row as Partial<BenchmarkRow> | null;
      if (typeof r !== 'object' || r === null || typeof r.target_package !== 'string' || typeof r.target_module !== 'string' || typeof r.target_function !== 'string' || typeof r.status !== 'string')
        throw new UsageError(`${label}:${i + 1}: not a benchmark-local row (target_package, target_module, target_function, status)`, 'INVALID_ROW');
      return r as BenchmarkRow;
    });
}

/** `smi merge-rows`. */
export const mergeRowsCommand = defineCommand<MergeRowsArgs>({
  ...header('merge-rows'),
  positionals: { parts: { type: 'string', array: true, file: 'read', describe: 'The parts’ row files, in order: part 1 first (- : one of them on standard input)' } },
  options: {
    out: { type: 'string', default: '-', describe: 'The joined rows (- for standard output)', file: 'write' },
  },
  examples: [
    {
      command:
        '$0 benchmark-local --target-corpus ../shared/corpus --shard 1/2 --output p1.jsonl --quiet && $0 benchmark-local --target-corpus ../shared/corpus --shard 2/2 --output p2.jsonl --quiet && $0 merge-rows p1.jsonl p2.jsonl --out rows.jsonl',
      describe: 'two parts of a run, joined: the rows one run writes, in its order',
    },
  ],
  epilog:
    'Give every part. Refused (exit 2): parts whose sizes cannot be those of the N parts of one run, rows of packages that failed to load outside part 1 (parts out of order), a target twice. Rows do not record their part, so a missing part can pass for a smaller run: check that every shard finished.',
  run: async (args, io) => {
    if (args.parts.filter((p) => p === '-').length > 1) throw new UsageError('standard input (-) can be given once');
    const parts: BenchmarkRow[][] = [];
    for (const p of args.parts) parts.push(parseRows(p === '-' ? 'standard input' : p, (await readInput(io, p, 'part')).toString('utf8')));
    const rows = mergeShardRows(
      parts,
      args.parts.map((p) => (p === '-' ? 'standard input' : p)),
    );
    writeOutput(io, args.out, rows.map(rowLine).join(''));
    if (args.json && args.out !== '-') io.stdout(jsonLine({ status: 'ok', parts: parts.length, rows: rows.length }));
    else if (!args.quiet && args.out !== '-') io.stderr(`joined ${parts.length} parts: ${rows.length} rows into ${args.out}\n`);
    return 0;
  },
});
