/**
 * `smi tx-replay --output`: the original's `FetchedTransaction` JSON lines, to a file (written
 * through `<file>.partial` and renamed when done, so an interrupted run leaves whole lines) or
 * to standard output (`-`).
 */
import { closeSync, openSync, renameSync, writeSync } from 'node:fs';
import { type CliIo, resolvePath } from '../io.js';
import type { Json } from '@smi/bytecode';

/** Where transactions are written, line by line. */
export interface TransactionOutput {
  write(tx: Json): void;
  close(): void;
}

/** The output `--output` names (`undefined`: none). */
export function openOutput(io: CliIo, file: string | undefined): TransactionOutput | null {
  if (file === undefined) return null;
  if (file === '-') return { write: (tx) => io.stdout(JSON.stringify(tx) + '\n'), close: () => undefined };
  const target = resolvePath(io, file);
  const partial = `${target}.partial`;
  const fd = openSync(partial, 'w');
  let open = true;
  return {
    write: (tx) => {
      writeSync(fd, JSON.stringify(tx) + '\n');
    },
    close: () => {
      if (!open) return;
      open = false;
      closeSync(fd);
      renameSync(partial, target);
    },
  };
}
