/**
 * `smi cache ls|prune|clear`: the response cache of the model commands (one file per
 * request, keyed by SHA-256 of what decides the answer).
 */
import { ResponseCache } from '@smi/harness';
import { defineCommand } from '../command.js';
import { UsageError } from '../errors.js';
import { defaultCacheDir } from '../harness-setup.js';
import { jsonLine, resolvePath } from '../io.js';
import { header } from './registry.js';

interface CacheArgs {
  action: 'ls' | 'prune' | 'clear';
  'cache-dir'?: string;
  'older-than'?: string;
  model?: string;
  yes: boolean;
}

/** `30d`, `12h`, `90m`, `45s` in ms. */
function parseAge(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([smhd])\s*$/.exec(text);
  if (!m) throw new UsageError(`--older-than ${text}: expected a number and a unit (s, m, h, d), as 30d or 12h`, 'INVALID_NUMBER');
  return Number(m[1]) * { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 's' | 'm' | 'h' | 'd'];
}

function size(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 ** 2 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
}

/** `smi cache`. */
export const cacheCommand = defineCommand<CacheArgs>({
  ...header('cache'),
  positionals: { action: { choices: ['ls', 'prune', 'clear'] as const, describe: 'ls | prune | clear' } },
  options: {
    'cache-dir': { type: 'string', describe: 'Cache directory (default $SMI_CACHE_DIR or ~/.cache/smi/responses)' },
    'older-than': { type: 'string', describe: 'prune: entries older than this (30d, 12h, 90m)' },
    model: { type: 'string', describe: 'prune: only entries of this model' },
    yes: { type: 'boolean', default: false, describe: 'clear: do it (without it, clear says what it would remove)' },
  },
  examples: [
    { command: '$0 cache ls --cache-dir .smi-cache', describe: 'entries, size and models of a cache' },
    { command: '$0 cache prune --older-than 30d --cache-dir .smi-cache', describe: 'drop what is older than 30 days' },
    { command: '$0 cache clear --yes --cache-dir .smi-cache', describe: 'empty the cache' },
  ],
  run: (args, io) => {
    const dir = args['cache-dir'] !== undefined ? resolvePath(io, args['cache-dir']) : defaultCacheDir(io);
    const cache = new ResponseCache(dir);
    if (args.action === 'ls') {
      const s = cache.stats();
      if (args.json) io.stdout(jsonLine({ dir, ...s }));
      else {
        io.stdout(`${dir}: ${s.entries} entries, ${size(s.bytes)}${s.oldest ? `, ${s.oldest} to ${s.newest}` : ''}\n`);
        for (const [m, n] of Object.entries(s.byModel).sort((a, b) => b[1] - a[1])) io.stdout(`  ${String(n).padStart(6)}  ${m}\n`);
      }
      return 0;
    }
    if (args.action === 'prune') {
      if (args['older-than'] === undefined && args.model === undefined) throw new UsageError('prune needs --older-than (and/or --model)', 'USAGE');
      const cutoff = new Date(Date.now() - (args['older-than'] === undefined ? 0 : parseAge(args['older-than'])));
      const removed = cache.prune(args['older-than'] === undefined ? new Date(8.64e15) : cutoff, args.model);
      if (args.json) io.stdout(jsonLine({ dir, removed }));
      else io.stdout(`removed ${removed} entr${removed === 1 ? 'y' : 'ies'} from ${dir}\n`);
      return 0;
    }
    const s = cache.stats();
    if (!args.yes) {
      if (args.json) io.stdout(jsonLine({ dir, would_remove: s.entries }));
      else io.stdout(`${dir} holds ${s.entries} entries (${size(s.bytes)}); run again with --yes to remove them\n`);
      return 0;
    }
    const removed = cache.clear();
    if (args.json) io.stdout(jsonLine({ dir, removed }));
    else io.stdout(`removed ${removed} entr${removed === 1 ? 'y' : 'ies'} from ${dir}\n`);
    return 0;
  },
});
