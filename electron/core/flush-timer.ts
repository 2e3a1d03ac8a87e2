/**
 * The timer of a write-behind buffer: the first write queued after a flush arms it, and it calls the
 * flush `ms` later. The flush disarms it as it starts, so a flush called early (a full batch, a close)
 * leaves no timer behind. It never holds the process open.
 */
export class FlushTimer {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly ms: number,
    private readonly flush: () => void,
  ) {}

  /** Arms the timer, unless it is armed already. */
  arm(): void {
    if (this.timer) return;
    this.timer = setTimeout(this.flush, this.ms);
    this.timer.unref();
  }

  /** Disarms the timer: the flush's first step. */
  disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
