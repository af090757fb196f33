// One error type for the package: a machine-readable code plus a message that names what and where.

export type GrpoErrorCode =
  | 'bad_config' // a hyper-parameter out of range
  | 'bad_batch' // rollouts or tensors of the wrong shape or content
  | 'bad_group' // a group too small or a reward that is not a number
  | 'non_finite' // a loss, gradient norm or log-prob that is NaN or infinite
  | 'env' // an environment misbehaved during a rollout
  | 'memory'; // a training graph's estimated peak memory is over the budget

export class GrpoError extends Error {
  override readonly name = 'GrpoError';
  constructor(
    readonly code: GrpoErrorCode,
    message: string,
  ) {
    super(message);
  }

  /** Settings or inputs the user can fix (the CLI exits 2 on these). */
  get badInput(): boolean {
    return this.code === 'bad_config' || this.code === 'memory';
  }
}
