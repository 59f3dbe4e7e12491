/**
 * The argument rule of non-public `entry` functions (upstream
 * `typing/verify/private_entry_arguments.rs`, protocol 108+). Values used together in a
 * command are entangled into one "clique" forever. A clique is hot while it holds a hot
 * potato (a value with neither `drop` nor `store`), or for good once a command consumes a
 * shared object by value (it incurs post-execution checks). A non-public entry function
 * may not take an argument from a hot clique; the command's own arguments are released
 * first, so it may consume the last hot potato of its clique.
 */

/** Cliques with their temperature (union-find; temperature kept at the root). */
export class Cliques {
  private readonly parent: number[] = [];
  /** Hot-potato count at each root, or `-1` for always hot. */
  private readonly count: number[] = [];

  /** A new, cold clique. */
  next(): number {
    this.parent.push(this.parent.length);
    this.count.push(0);
    return this.parent.length - 1;
  }

  root(c: number): number {
    let r = c;
    while (this.parent[r] !== r) r = this.parent[r];
    // Path compression.
    let x = c;
    while (this.parent[x] !== r) {
      const up = this.parent[x];
      this.parent[x] = r;
      x = up;
    }
    return r;
  }

  /** Add `n` hot values to the clique (no effect on an always-hot one). */
  heat(c: number, n: number): void {
    const r = this.root(c);
    if (this.count[r] >= 0) this.count[r] += n;
  }

  isHot(c: number): boolean {
    return this.count[this.root(c)] !== 0;
  }

  markAlwaysHot(c: number): void {
    this.count[this.root(c)] = -1;
  }

  /** One clique holding all of `ids` (a new one when empty). */
  merge(ids: Iterable<number>): number {
    const roots = new Set<number>();
    for (const c of ids) roots.add(this.root(c));
    if (roots.size === 0) return this.next();
    if (roots.size === 1) return roots.values().next().value as number;
    const merged = this.next();
    let total = 0;
    for (const r of roots) {
      total = total < 0 || this.count[r] < 0 ? -1 : total + this.count[r];
      this.parent[r] = merged;
    }
    this.count[merged] = total;
    return merged;
  }
}
