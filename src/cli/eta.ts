/**
 * The time left of a job from how fast its done fraction grows, smoothed so that one dense or sparse
 * stretch of the chain does not swing the estimate: the rate is an exponentially weighted average
 * over the last `timeConstantSeconds` or so, and no estimate is given before `warmUpSeconds`.
 */
export class SmoothedEta {
  #rate: number | undefined;
  #last: { seconds: number; done: number } | undefined;

  constructor(
    private readonly timeConstantSeconds = 20,
    private readonly warmUpSeconds = 2,
  ) {}

  /** Records that `done` (0..1) of the job was done `seconds` after it started. */
  observe(seconds: number, done: number): void {
    const last = this.#last ?? { seconds: 0, done: 0 };
    const dt = seconds - last.seconds;
    if (dt <= 0) return;
    const rate = Math.max(0, done - last.done) / dt;
    const weight = 1 - Math.exp(-dt / this.timeConstantSeconds);
    this.#rate = this.#rate === undefined ? rate : this.#rate + weight * (rate - this.#rate);
    this.#last = { seconds, done };
  }

  /** Seconds left, or undefined while there is no estimate worth showing. */
  secondsLeft(): number | undefined {
    const last = this.#last;
    if (last === undefined || this.#rate === undefined) return undefined;
    if (last.done >= 1) return 0;
    if (last.seconds < this.warmUpSeconds || this.#rate <= 0) return undefined;
    return (1 - last.done) / this.#rate;
  }
}
