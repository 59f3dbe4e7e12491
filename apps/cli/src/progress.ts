/**
 * A progress bar on stderr: redrawn in place on a terminal (at most ten times a second),
 * a line every 10% otherwise (CI logs), silent when `quiet`. It shows what was just
 * finished or a status (`detail`), and the time left once a few steps are done.
 */
import type { CliIo } from './io.js';

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/** Progress reporter for a known number of steps. */
export class Progress {
  private done: number;
  private lastPercent = -1;
  private lastDraw = 0;
  private readonly started = Date.now();
  private readonly initial: number;

  /** `initial`: steps already done before this run (a resumed run). */
  constructor(
    private readonly io: CliIo,
    private readonly label: string,
    private readonly total: number,
    private readonly quiet = false,
    initial = 0,
  ) {
    this.done = initial;
    this.initial = initial;
  }

  /** Time left, from the pace of the steps done in this run. */
  private eta(): string {
    const ran = this.done - this.initial;
    if (ran < 3 || this.done >= this.total) return '';
    const perStep = (Date.now() - this.started) / ran;
    return ` ETA ${duration(perStep * (this.total - this.done))}`;
  }

  /** Advance by one step; `detail` names what was just finished, or the status so far. */
  tick(detail = ''): void {
    this.done++;
    if (this.quiet || this.total === 0) return;
    const percent = Math.floor((100 * this.done) / this.total);
    if (this.io.isTty) {
      const now = Date.now();
      if (now - this.lastDraw < 100 && this.done < this.total) return;
      this.lastDraw = now;
      const width = 30;
      const filled = Math.round((width * this.done) / this.total);
      const bar = '#'.repeat(filled) + '-'.repeat(width - filled);
      this.io.stderr(`\r${this.label} [${bar}] ${this.done}/${this.total} ${`${detail}${this.eta()}`.slice(0, 60).padEnd(60)}`);
    } else if (percent >= this.lastPercent + 10 || this.done === this.total) {
      this.lastPercent = percent;
      this.io.stderr(`${this.label}: ${this.done}/${this.total} (${percent}%)${detail ? ` ${detail}` : ''}${this.eta()}\n`);
    }
  }

  /** Finish the bar (newline on a terminal) and return the elapsed milliseconds. */
  finish(): number {
    if (!this.quiet && this.io.isTty && this.total > 0) this.io.stderr('\n');
    return Date.now() - this.started;
  }
}
