// Left-to-right decoding over a causal model with a per-row cache: the prompt is one forward,
// then one forward per generated token. Stops at the first stop id (not returned) or maxNewTokens.
// A request may force the opening of its answer (forcedPrefix): those tokens go into the cache with
// the prompt in the same first forward, are returned as the first generated tokens, and count
// toward maxNewTokens and the repetition penalty like sampled ones; sampling continues after them.
// This is the one kind of anchor left-to-right decoding can honour (a span at position 0).
import { checkTokenSampling, chooseToken, type TokenSampling } from './token.js';
import { SamplingError } from './errors.js';
import type { CausalDecoder, CausalItem, CausalModel } from './model.js';
import { checkPositiveInt, checkPrompt, RowClock, type SampleRequest, type SampleResult } from './request.js';

export interface AutoregressiveOptions extends TokenSampling {
  maxNewTokens: number;
  stopIds?: readonly number[];
  /** Ids that are never sampled (e.g. a diffusion model's mask id). */
  bannedIds?: readonly number[];
  /** Repetition penalty over prompt tokens too (default: generated tokens only). */
  penalizePrompt?: boolean;
  /** Greedy decoding takes its choices from the model's forwardGreedy when it has one (default true; false reads the logits). */
  greedyInModel?: boolean;
}

/** A request whose answer may start with fixed tokens. */
export interface AutoregressiveRequest extends SampleRequest {
  /** The answer's first tokens, taken as given (no stop id among them); sampling continues after them. */
  forcedPrefix?: readonly number[];
}

/** Rejects a forced prefix with ids outside the vocabulary, a stop id, or more tokens than maxNewTokens. */
function checkForcedPrefix(prefix: readonly number[], where: string, vocabSize: number, stops: ReadonlySet<number>, maxNewTokens: number, seed: number): void {
  if (prefix.length > maxNewTokens) throw new SamplingError('bad_input', `${where}: the forced prefix has ${prefix.length} tokens, more than maxNewTokens ${maxNewTokens} (seed ${seed})`);
  prefix.forEach((t, i) => {
    if (!(Number.isInteger(t) && t >= 0 && t < vocabSize)) throw new SamplingError('bad_input', `${where}: forced prefix token ${i} = ${t} is outside the vocabulary [0, ${vocabSize}) (seed ${seed})`);
    if (stops.has(t)) throw new SamplingError('bad_input', `${where}: forced prefix token ${i} = ${t} is a stop id, which would end the answer inside its prefix (seed ${seed})`);
  });
}

/** One request's decoding state (shared with the continuous scheduler, continuous.ts). */
export interface ArRow {
  readonly clock: RowClock;
  next: readonly number[];
  readonly generated: number[];
  readonly penalize: Set<number>;
  done: boolean;
  finish: 'stop' | 'length';
  /** How this row's tokens are chosen (the continuous scheduler lets each request bring its own). */
  readonly sampling: TokenSampling;
  readonly maxNewTokens: number;
}

/** Checks the options once per call or scheduler. */
export function checkAutoregressiveOptions(options: AutoregressiveOptions, where: string): void {
  checkTokenSampling(options, where);
  checkPositiveInt(options.maxNewTokens, 'maxNewTokens', where);
}

/** A request's row, checked: a non-empty prompt in the vocabulary, no anchors, a valid forced prefix. */
export function openArRow(req: AutoregressiveRequest, options: AutoregressiveOptions, where: string, vocabSize: number, stops: ReadonlySet<number>): ArRow {
  if (req.prompt.length === 0) throw new SamplingError('bad_input', `${where}: a prompt needs at least one token`);
  if (req.anchors?.length) throw new SamplingError('bad_input', `${where}: anchors need a diffusion sampler (left-to-right decoding cannot see a later span)`);
  checkPrompt(req.prompt, where, vocabSize);
  const prefix = req.forcedPrefix ?? [];
  checkForcedPrefix(prefix, where, vocabSize, stops, options.maxNewTokens, req.seed);
  return {
    clock: RowClock.for(req),
    next: prefix.length ? [...req.prompt, ...prefix] : req.prompt,
    generated: [...prefix],
    penalize: new Set([...(options.penalizePrompt ? req.prompt : []), ...prefix]),
    // A prefix of maxNewTokens tokens is the whole answer: nothing to run.
    done: prefix.length >= options.maxNewTokens,
    finish: 'length',
    sampling: options,
    maxNewTokens: options.maxNewTokens,
  };
}

/** A row whose choice is the model's greedy pick: chooseToken at temperature 0 without a penalty. */
const greedyRow = (s: TokenSampling) => s.temperature === 0 && (s.repetitionPenalty === undefined || s.repetitionPenalty === 1);

/**
 * One forward for `items` (rows' next tokens, in `rows` order): each row's next token. When every
 * row of the pass is greedy the model makes the choices where it can (forwardGreedy); otherwise
 * chooseToken runs over each row's copied-out logits with the row's own options and RNG. Both give
 * a greedy row the same token (argmax of the same float32 logits, lowest id on ties: the decoder
 * itself picks either way by batch size), so a greedy row's answer does not depend on whether a
 * sampled row shares its pass. `options` gives the banned ids and greedyInModel for every row.
 */
export function tokenChooser(
  decoder: CausalDecoder,
  options: Pick<AutoregressiveOptions, 'bannedIds' | 'greedyInModel'>,
  where: string,
  vocabSize: number,
): (items: CausalItem[], rows: readonly ArRow[]) => Promise<number[]> {
  const greedy = options.greedyInModel !== false && decoder.forwardGreedy ? decoder.forwardGreedy.bind(decoder) : undefined;
  const banned = options.bannedIds ?? [];
  return async (items, rows) => {
    if (greedy && rows.every((r) => greedyRow(r.sampling))) {
      const picks = await greedy(items, banned);
      if (picks.length !== items.length) throw new SamplingError('bad_model', `${where}: the model returned ${picks.length} greedy choices for ${items.length} items`);
      return picks.map((p) => p.tokens[0]!);
    }
    const logits = await decoder.forward(items);
    if (logits.length !== items.length) throw new SamplingError('bad_model', `${where}: the model returned ${logits.length} logits rows for ${items.length} items`);
    return rows.map((r, n) => {
      const l = logits[n]!;
      if (l.length !== vocabSize) throw new SamplingError('bad_model', `${where}: a logits row has ${l.length} values, expected ${vocabSize}`);
      return chooseToken(l, r.sampling, r.clock.rng, { banned: options.bannedIds, penalize: r.penalize }).token;
    });
  };
}

/** Takes a row's chosen token: a stop ends it, else it is generated (and ends the row at its maxNewTokens). */
export function advanceArRow(r: ArRow, token: number, stops: ReadonlySet<number>, t0: number): void {
  r.clock.forwards++;
  if (stops.has(token)) {
    r.done = true;
    r.finish = 'stop';
  } else {
    r.generated.push(token);
    r.penalize.add(token);
    r.next = [token];
    if (r.generated.length >= r.maxNewTokens) r.done = true;
  }
  if (r.done) r.clock.ms = performance.now() - t0;
}

export function arResult(r: ArRow): SampleResult {
  return { tokens: r.generated, finish: r.finish, stats: r.clock.stats(r.generated.length) };
}

export async function sampleAutoregressive(model: CausalModel, requests: readonly AutoregressiveRequest[], options: AutoregressiveOptions): Promise<SampleResult[]> {
  const where = 'autoregressive';
  checkAutoregressiveOptions(options, where);
  const v = model.vocabSize;
  const stops = new Set(options.stopIds ?? []);
  const t0 = performance.now();
  const rows = requests.map((req) => openArRow(req, options, where, v, stops));
  const decoder = await model.open(rows.length);
  const next = tokenChooser(decoder, options, where, v);
  try {
    for (;;) {
      const active = rows.map((r, i) => ({ r, i })).filter(({ r }) => !r.done);
      if (active.length === 0) break;
      const items: CausalItem[] = active.map(({ r, i }) => ({ row: i, tokens: r.next }));
      const tokens = await next(
        items,
        active.map(({ r }) => r),
      );
      active.forEach(({ r }, n) => advanceArRow(r, tokens[n]!, stops, t0));
    }
  } finally {
    await decoder.close();
  }
  return rows.map(arResult);
}
