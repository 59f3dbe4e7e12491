/**
 * The work of a run on worker threads: targets in chunks (consecutive targets of one
 * module, at most {@link CHUNK_SIZE}), queued by package, the versions of one package (one
 * original id) together. A worker keeps to one package while it has chunks left: what its
 * targets share (the setup transactions, sequences and comparison logs its Tier B cache
 * holds, the package's verified modules, and an upgrade's setups shared with the version
 * before) is then made once, by one worker. A worker that runs out takes the package no
 * worker has started with the most work left, then helps with the one with the most work left.
 */
import type { TargetRef } from './benchmark.js';

/** Targets per chunk: small enough to balance two workers, large enough to keep them busy. */
const CHUNK_SIZE = 16;

/** A chunk: positions in the run's targets, all of one package. */
export interface Chunk {
  package: string;
  positions: number[];
}

/** Chunks waiting, by package, in output order within each. */
export class ChunkQueue {
  private readonly byPackage = new Map<string, number[][]>();
  /** Packages some worker is on. */
  private readonly started = new Map<string, number>();

  /** `originalOf(storage id)`: the original id of a target's package (its versions are one group). */
  constructor(todo: readonly TargetRef[], originalOf: (id: string) => string = (id) => id) {
    let key = '';
    todo.forEach((t, i) => {
      const k = `${t.packageId}::${t.module}`;
      const group = originalOf(t.packageId);
      const list = this.byPackage.get(group) ?? [];
      const last = list[list.length - 1];
      if (k !== key || last === undefined || last.length >= CHUNK_SIZE) list.push([i]);
      else last.push(i);
      key = k;
      this.byPackage.set(group, list);
    });
  }

  /** `true` when no chunk is left. */
  get empty(): boolean {
    for (const list of this.byPackage.values()) if (list.length > 0) return false;
    return true;
  }

  private left(pkg: string): number {
    return (this.byPackage.get(pkg) ?? []).reduce((n, c) => n + c.length, 0);
  }

  /** The next chunk for a worker last on package `current` (`null`: none started yet), or `null` when none is left. */
  take(current: string | null): Chunk | null {
    let pkg: string | null = current !== null && (this.byPackage.get(current)?.length ?? 0) > 0 ? current : null;
    if (pkg === null) {
      let best = -1;
      // A package nobody is on, the most work first; else help the one with the most work left.
      for (const fresh of [true, false]) {
        for (const p of this.byPackage.keys()) {
          const n = this.left(p);
          if (n === 0 || (fresh && (this.started.get(p) ?? 0) > 0)) continue;
          if (n > best) {
            best = n;
            pkg = p;
          }
        }
        if (pkg !== null) break;
      }
    }
    if (pkg === null) return null;
    const positions = (this.byPackage.get(pkg) as number[][]).shift() as number[];
    if (pkg !== current) {
      if (current !== null) this.started.set(current, Math.max(0, (this.started.get(current) ?? 1) - 1));
      this.started.set(pkg, (this.started.get(pkg) ?? 0) + 1);
    }
    return { package: pkg, positions };
  }

  /** Put the rest of a chunk back at the front of its package's queue (its worker was replaced). */
  putBack(chunk: Chunk): void {
    if (chunk.positions.length === 0) return;
    const list = this.byPackage.get(chunk.package) ?? [];
    list.unshift(chunk.positions);
    this.byPackage.set(chunk.package, list);
  }
}
