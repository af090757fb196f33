// Learning-rate schedules: pure, validated functions of the (1-based) step, evaluated on the host
// and fed to the training graph as a scalar input.

export type Schedule = (step: number) => number;

function check(cond: boolean, what: string): void {
  if (!cond) throw new RangeError(`schedule: ${what}`);
}

export function constant(lr: number): Schedule {
  check(lr >= 0 && Number.isFinite(lr), `lr must be a finite non-negative number, got ${lr}`);
  return () => lr;
}

/** Linear warmup from lr/warmup to lr over `warmup` steps, then constant. */
export function constantWithWarmup(lr: number, warmup: number): Schedule {
  check(lr >= 0 && Number.isFinite(lr), `lr must be a finite non-negative number, got ${lr}`);
  check(Number.isInteger(warmup) && warmup >= 0, `warmup must be a non-negative integer, got ${warmup}`);
  return (step) => (step <= warmup ? (lr * step) / warmup : lr);
}

/** Linear warmup, then cosine decay from lr to minLr at `total` steps (held at minLr after). */
export function cosineWithWarmup(opts: { lr: number; warmup: number; total: number; minLr?: number }): Schedule {
  const { lr, warmup, total, minLr = 0 } = opts;
  check(lr >= 0 && Number.isFinite(lr), `lr must be a finite non-negative number, got ${lr}`);
  check(Number.isInteger(warmup) && warmup >= 0, `warmup must be a non-negative integer, got ${warmup}`);
  check(Number.isInteger(total) && total > warmup, `total (${total}) must be an integer above warmup (${warmup})`);
  check(minLr >= 0 && minLr <= lr, `minLr must lie in [0, lr], got ${minLr}`);
  return (step) => {
    if (step <= warmup) return (lr * step) / Math.max(warmup, 1);
    const progress = Math.min((step - warmup) / (total - warmup), 1);
    return minLr + 0.5 * (lr - minLr) * (1 + Math.cos(Math.PI * progress));
  };
}
