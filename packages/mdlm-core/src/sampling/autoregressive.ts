// Left-to-right decoding over a causal model with a per-row cache: the prompt is one forward,
// then one forward per generated token. Stops at the first stop id (not returned) or maxNewTokens.
import { checkTokenSampling, chooseToken, type TokenSampling } from './token.js';
import { SamplingError } from './errors.js';
import type { CausalItem, CausalModel } from './model.js';
import { checkPositiveInt, checkPrompt, RowClock, type SampleRequest, type SampleResult } from './request.js';

export interface AutoregressiveOptions extends TokenSampling {
  maxNewTokens: number;
  stopIds?: readonly number[];
  /** Ids that are never sampled (e.g. a diffusion model's mask id). */
  bannedIds?: readonly number[];
  /** Repetition penalty over prompt tokens too (default: generated tokens only). */
  penalizePrompt?: boolean;
}

interface ArRow {
  readonly clock: RowClock;
  next: readonly number[];
  readonly generated: number[];
  readonly penalize: Set<number>;
  done: boolean;
  finish: 'stop' | 'length';
}

export async function sampleAutoregressive(model: CausalModel, requests: readonly SampleRequest[], options: AutoregressiveOptions): Promise<SampleResult[]> {
  const where = 'autoregressive';
  checkTokenSampling(options, where);
  checkPositiveInt(options.maxNewTokens, 'maxNewTokens', where);
  const v = model.vocabSize;
  const stops = new Set(options.stopIds ?? []);
  const t0 = performance.now();
  const rows: ArRow[] = requests.map((req) => {
    if (req.prompt.length === 0) throw new SamplingError('bad_input', `${where}: a prompt needs at least one token`);
    if (req.anchors?.length) throw new SamplingError('bad_input', `${where}: anchors need a diffusion sampler (left-to-right decoding cannot see a later span)`);
    checkPrompt(req.prompt, where, v);
    return { clock: RowClock.for(req), next: req.prompt, generated: [], penalize: new Set(options.penalizePrompt ? req.prompt : []), done: false, finish: 'length' };
  });
  const decoder = await model.open(rows.length);
  try {
    for (;;) {
      const active = rows.map((r, i) => ({ r, i })).filter(({ r }) => !r.done);
      if (active.length === 0) break;
      const items: CausalItem[] = active.map(({ r, i }) => ({ row: i, tokens: r.next }));
      const logits = await decoder.forward(items);
      if (logits.length !== items.length) throw new SamplingError('bad_model', `${where}: the model returned ${logits.length} logits rows for ${items.length} items`);
      active.forEach(({ r }, n) => {
        const l = logits[n]!;
        if (l.length !== v) throw new SamplingError('bad_model', `${where}: a logits row has ${l.length} values, expected ${v}`);
        r.clock.forwards++;
        const { token } = chooseToken(l, options, r.clock.rng, { banned: options.bannedIds, penalize: r.penalize });
        if (stops.has(token)) {
          r.done = true;
          r.finish = 'stop';
        } else {
          r.generated.push(token);
          r.penalize.add(token);
          r.next = [token];
          if (r.generated.length >= options.maxNewTokens) r.done = true;
        }
        if (r.done) r.clock.ms = performance.now() - t0;
      });
    }
  } finally {
    await decoder.close();
  }
  return rows.map((r) => ({ tokens: r.generated, finish: r.finish, stats: r.clock.stats(r.generated.length) }));
}
