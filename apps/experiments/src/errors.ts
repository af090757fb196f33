// The experiments' error: settings that cannot run (bad_config, memory: exit 2 in the CLI) or an
// environment worker that failed (env).
export type ExperimentErrorCode = 'bad_config' | 'memory' | 'env';

export class ExperimentError extends Error {
  override readonly name = 'ExperimentError';
  constructor(
    readonly code: ExperimentErrorCode,
    message: string,
  ) {
    super(message);
  }

  get badInput(): boolean {
    return this.code !== 'env';
  }
}
