// The checkpoint layer's one error class: every failure names the file, the tensor when there is
// one, and the problem, so a broken download or a half-written directory is diagnosed at once.

export type CheckpointIssueCode =
  | 'bad_header' // the safetensors header is malformed (length, JSON, dtype, shape, offsets)
  | 'unsupported_dtype' // a valid safetensors dtype this reader cannot turn into a typed array
  | 'tensor_not_found' // a requested tensor is not in the file / index
  | 'bad_tensor' // a tensor given to a writer is inconsistent (shape vs data, duplicate name…)
  | 'bad_index' // model.safetensors.index.json is malformed or disagrees with its shards
  | 'bad_checkpoint' // a checkpoint directory lacks a file or holds an invalid JSON file
  | 'bad_option'; // an option value is out of range

export interface CheckpointIssue {
  code: CheckpointIssueCode;
  /** The file or directory concerned. */
  file: string;
  /** The tensor concerned, when the problem is about one tensor. */
  tensor?: string;
  message: string;
}

export class CheckpointError extends Error {
  override readonly name = 'CheckpointError';
  /** Every checkpoint issue is about the input (a file or an argument): the CLI maps it to exit code 2. */
  readonly badInput = true;
  constructor(readonly issue: CheckpointIssue) {
    const where = issue.tensor === undefined ? issue.file : `${issue.file}, tensor "${issue.tensor}"`;
    super(`[checkpoint] ${where}: ${issue.message}`);
  }
}
