// Truncation and padding of already-encoded sequences, as pure functions over id arrays.
import { TokenizerError } from './errors.js';

export type Side = 'left' | 'right';

export interface BatchOptions {
  /** Add the post-processor's special tokens (default true, as in `tokenizers`). */
  addSpecialTokens?: boolean;
  /** Longest sequence kept; longer ones lose tokens on the `truncation` side. */
  maxLength?: number;
  /** Which end loses tokens (default 'right'; 'left' keeps the most recent context). */
  truncation?: Side;
  /** 'longest' pads to the longest row, 'max_length' to maxLength, false leaves rows ragged. */
  padding?: 'longest' | 'max_length' | false;
  /** Which end receives pad ids (default: the tokenizer.json padding direction, else 'right'). */
  padSide?: Side;
  /** Pad id (default: tokenizer.json padding.pad_id, else the id of `<|pad|>`). */
  padId?: number;
  /** Round the padded length up to a multiple of this (block diffusion wants multiples of the block). */
  padToMultipleOf?: number;
}

export interface BatchEncoding {
  ids: number[][];
  /** 1 for real tokens, 0 for pads. */
  attentionMask: number[][];
  /** Real (unpadded, truncated) length of each row. */
  lengths: number[];
}

function checkPositiveInt(value: number | undefined, option: string): void {
  if (value !== undefined && (!Number.isInteger(value) || value <= 0)) {
    throw new TokenizerError([{ code: 'bad_option', where: 'encodeBatch', option, detail: `must be a positive integer, got ${value}` }]);
  }
}

/** Truncates and pads `rows` (ids per text) according to `opts`; `padId` must be resolved already. */
export function truncateAndPad(rows: number[][], opts: BatchOptions & { padSide: Side }): BatchEncoding {
  checkPositiveInt(opts.maxLength, 'maxLength');
  checkPositiveInt(opts.padToMultipleOf, 'padToMultipleOf');
  const max = opts.maxLength;
  const truncated = rows.map((ids) => {
    if (max === undefined || ids.length <= max) return ids;
    return opts.truncation === 'left' ? ids.slice(ids.length - max) : ids.slice(0, max);
  });
  const lengths = truncated.map((r) => r.length);
  let target: number | undefined;
  if (opts.padding === 'longest') target = Math.max(0, ...lengths);
  else if (opts.padding === 'max_length') {
    if (max === undefined) {
      throw new TokenizerError([{ code: 'bad_option', where: 'encodeBatch', option: 'padding', detail: '"max_length" needs maxLength' }]);
    }
    target = max;
  }
  if (target !== undefined && opts.padToMultipleOf) target = Math.ceil(target / opts.padToMultipleOf) * opts.padToMultipleOf;
  if (target === undefined) {
    return { ids: truncated, attentionMask: truncated.map((r) => r.map(() => 1)), lengths };
  }
  if (opts.padId === undefined) {
    throw new TokenizerError([{ code: 'bad_option', where: 'encodeBatch', option: 'padId', detail: 'is needed for padding: the tokenizer has no pad token' }]);
  }
  const padId = opts.padId;
  const ids: number[][] = [];
  const attentionMask: number[][] = [];
  for (const row of truncated) {
    const n = target - row.length;
    const pads = new Array<number>(n).fill(padId);
    const zeros = new Array<number>(n).fill(0);
    const ones = new Array<number>(row.length).fill(1);
    ids.push(opts.padSide === 'left' ? [...pads, ...row] : [...row, ...pads]);
    attentionMask.push(opts.padSide === 'left' ? [...zeros, ...ones] : [...ones, ...zeros]);
  }
  return { ids, attentionMask, lengths };
}
