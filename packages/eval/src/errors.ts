// One error class for the package: a typed issue code, where it happened, and what to do.
// `badInput: true` lets the CLI map it to exit code 2 (the user's data or arguments are wrong).

export type EvalIssueCode =
  | 'invalid_json' // a JSONL line or a JSON text that had to parse did not
  | 'bad_row' // a row lacks the fields a metric needs
  | 'bad_option' // an option value is out of range
  | 'bad_features' // feature matrices of the wrong shape or with non-finite values
  | 'io'; // a file could not be read or written

export class EvalError extends Error {
  override readonly name = 'EvalError';
  readonly badInput: boolean;
  constructor(
    readonly code: EvalIssueCode,
    message: string,
    readonly where?: string,
  ) {
    super(where ? `[${code}] ${where}: ${message}` : `[${code}] ${message}`);
    this.badInput = code !== 'io';
  }
}
