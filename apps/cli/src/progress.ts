/**
 * A progress bar on stderr: redrawn in place on a terminal, a line every few percent
 * otherwise (CI logs), silent when `quiet`.
 */
import type { CliIo } from './io.js';

/** Progress reporter for a known number of steps. */
export class Progress {
  private done = 0;
  private lastPercent = -1;
  private readonly started = Date.now();

  constructor(
    private readonly io: CliIo,
    private readonly label: string,
    private readonly total: number,
    private readonly quiet = false,
  ) {}

  /** Advance by one step; `item` names what was just finished. */
  tick(item = ''): void {
    this.done++;
    if (this.quiet || this.total === 0) return;
    const percent = Math.floor((100 * this.done) / this.total);
    if (this.io.isTty) {
      const width = 30;
      const filled = Math.round((width * this.done) / this.total);
      const bar = '#'.repeat(filled) + '-'.repeat(width - filled);
      this.io.stderr(`\r${this.label} [${bar}] ${this.done}/${this.total} ${item.slice(0, 40).padEnd(40)}`);
    } else if (percent >= this.lastPercent + 10 || this.done === this.total) {
      this.lastPercent = percent;
      this.io.stderr(`${this.label}: ${this.done}/${this.total} (${percent}%)\n`);
    }
  }

  /** Finish the bar (newline on a terminal) and return the elapsed milliseconds. */
  finish(): number {
    if (!this.quiet && this.io.isTty && this.total > 0) this.io.stderr('\n');
    return Date.now() - this.started;
  }
}
