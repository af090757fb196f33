// Errors about a place in the input: a file line and field, a prompt file field. The CLI maps
// `badInput` to exit 2 and prints the message, which starts with the place.

export class LocatedError extends Error {
  readonly badInput = true;
  constructor(
    readonly where: string,
    message: string,
  ) {
    super(`${where}: ${message}`);
  }
}

/** A row of the paper's published data that is not what its reader expects. */
export class PaperRowError extends LocatedError {
  override readonly name = 'PaperRowError';
}
