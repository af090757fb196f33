// ChatGenerator on tiny world models trained in the test through trainWorldModel and loaded from
// their Hugging Face directories: greedy decoding reproduces memorised transitions, a seed fixes
// the text, the batch a request lands in does not change it, anchors are honoured, an ar model's
// forced prefix opens the answer and the rest is what the model writes after it.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatMessage } from '@diffworld/dataset';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCheckpoint, weightArrays } from '../checkpoint/index.js';
import { parseHfConfig } from '../nn/config.js';
import { tinyWmTokenizer as tok, trainTinyWorldModel, writeTransitions } from '../testing/index.js';
import { sampleAutoregressive } from './autoregressive.js';
import { SamplingError } from './errors.js';
import { ChatGenerator } from './generator.js';
import { OnnxCausalModel } from './onnx-models.js';

const rows: ChatMessage[][] = [];
const dirs: Record<'ar' | 'bd3' | 'mdlm', string> = { ar: '', bd3: '', mdlm: '' };

/** Trains on the first `count` of the 32 fixture transitions, at 64 tokens a row. */
async function train(objective: 'ar' | 'bd3' | 'mdlm', count: number, steps: number, lr: number): Promise<string> {
  const data = join(mkdtempSync(join(tmpdir(), `gen-${objective}-`)), 'rows.jsonl');
  writeTransitions(data, count);
  if (rows.length === 0) for (const l of readFileSync(data, 'utf8').trim().split('\n')) rows.push((JSON.parse(l) as { messages: ChatMessage[] }).messages);
  return trainTinyWorldModel({ data, settings: { objective, seqLength: 64, steps, lr } });
}

beforeAll(async () => {
  dirs.ar = await train('ar', 12, 200, 3e-3);
  dirs.bd3 = await train('bd3', 12, 100, 3e-3);
  dirs.mdlm = await train('mdlm', 12, 40, 3e-3);
}, 300_000);

const prompt = (m: ChatMessage[]) => m.slice(0, -1);

describe('ChatGenerator', () => {
  it('release frees a resident generator (generate refuses after it) and leaves a host one working (shared sessions)', async () => {
    const req = [{ messages: prompt(rows[0]!) }];
    for (const objective of ['ar', 'bd3'] as const) {
      const resident = await ChatGenerator.load(dirs[objective], { provider: 'cpu', decoder: 'resident' });
      const want = (await resident.generate(req, { maxNewTokens: 8 }))[0]!.text;
      await resident.release();
      await expect(resident.generate(req, { maxNewTokens: 8 }), objective).rejects.toThrow(/released/);
      const host = await ChatGenerator.load(dirs[objective], { provider: 'cpu' });
      await host.release();
      expect((await host.generate(req, { maxNewTokens: 8 }))[0]!.text, objective).toBe(want);
    }
  });

  it('ar: greedy decoding of memorised transitions reproduces them and stops at <|im_end|>', async () => {
    const g = await ChatGenerator.load(dirs.ar, { provider: 'cpu' });
    expect(g.objective).toBe('ar');
    expect(g.stopIds).toContain(tok.requireId('<|im_end|>'));
    const out = await g.generate(
      rows.map((m) => ({ messages: prompt(m) })),
      { maxNewTokens: 40, batchSize: 5 },
    );
    const right = out.filter((o, i) => o.text === rows[i]!.at(-1)!.content && o.finishReason === 'stop');
    expect(right.length, out.map((o) => o.text).join('\n')).toBe(rows.length);
    for (const o of out) {
      expect(o.stats.generatedTokens).toBe(o.tokenIds.length);
      expect(o.stats.forwards).toBe(o.tokenIds.length + 1); // prompt + one per token (the last one chose the stop id)
      expect(tok.decode(o.tokenIds, { skipSpecialTokens: false })).toBe(o.text);
    }
    // The resident decoder in float16 through graph steps (on the CPU: without capture): the same answers.
    const half = await ChatGenerator.load(dirs.ar, { provider: 'cpu', decoder: 'resident', dtype: 'float16', cudaGraph: true });
    const again = await half.generate(
      rows.map((m) => ({ messages: prompt(m) })),
      { maxNewTokens: 40, batchSize: 5 },
    );
    expect(again.map((o) => o.text)).toEqual(out.map((o) => o.text));
    // The dtype reaches the decoder: the CPU's default (host) decoder refuses half precision.
    await expect(ChatGenerator.load(dirs.ar, { provider: 'cpu', dtype: 'float16' })).rejects.toThrow(/half precision needs the resident decoder/);
  }, 120_000);

  it('ar: a forced prefix opens the answer; the rest is greedy decoding of prompt + prefix by an uncached model', async () => {
    const g = await ChatGenerator.load(dirs.ar, { provider: 'cpu' });
    const answers = rows.map((m) => tok.encodeIds(m.at(-1)!.content, { addSpecialTokens: false }));
    // The true opening of a memorised answer leads to the rest of it.
    const own = await g.generate(
      rows.slice(0, 5).map((m, i) => ({ messages: prompt(m), forcedPrefix: answers[i]!.slice(0, 3) })),
      { maxNewTokens: 40, batchSize: 5 },
    );
    own.forEach((o, i) => {
      expect(o.text).toBe(rows[i]!.at(-1)!.content);
      expect(o.finishReason).toBe('stop');
      expect(o.stats.forwards).toBe(o.tokenIds.length - 3 + 1); // prompt and prefix in one forward, then one per token
    });
    // A foreign opening of a different length per row (the next row's answer), in one batch: the
    // continuation equals what an uncached model (every step re-runs the whole sequence) writes
    // after a prompt that ends with the prefix — a wrong cache position or row offset breaks it.
    const prefixes = [2, 5, 3, 7].map((n, i) => answers[i + 1]!.slice(0, n));
    const forced = await g.generate(
      prefixes.map((p, i) => ({ messages: prompt(rows[i]!), forcedPrefix: p })),
      { maxNewTokens: 24, batchSize: 4 },
    );
    const ck = await loadCheckpoint(dirs.ar, { optimizer: false });
    const uncached = await OnnxCausalModel.create(parseHfConfig(ck.config, dirs.ar), weightArrays(ck.weights), { provider: 'cpu', cache: 'none' });
    for (const [i, p] of prefixes.entries()) {
      const [ref] = await sampleAutoregressive(uncached, [{ prompt: [...g.promptIds(prompt(rows[i]!)), ...p], seed: 0 }], {
        temperature: 0,
        maxNewTokens: 24 - p.length,
        stopIds: g.stopIds,
        ...(g.maskId !== undefined ? { bannedIds: [g.maskId] } : {}),
      });
      expect(forced[i]!.tokenIds.slice(0, p.length)).toEqual(p);
      expect(forced[i]!.tokenIds).toEqual([...p, ...ref!.tokens]);
      expect(forced[i]!.text.startsWith(tok.decode(p, { skipSpecialTokens: false }))).toBe(true);
    }
    // An empty prefix is no prefix: the same output as a plain request.
    const [plain, empty] = await g.generate([{ messages: prompt(rows[0]!) }, { messages: prompt(rows[0]!), forcedPrefix: [] }], { maxNewTokens: 24 });
    expect(empty!.tokenIds).toEqual(plain!.tokenIds);
    await expect(g.generate([{ messages: prompt(rows[0]!), forcedPrefix: answers[0]!.slice(0, 5) }], { maxNewTokens: 4 })).rejects.toThrow(
      /request 0 has a forcedPrefix of 5 tokens, more than maxNewTokens 4/,
    );
    const bd3 = await ChatGenerator.load(dirs.bd3, { provider: 'cpu' });
    await expect(bd3.generate([{ messages: prompt(rows[0]!), forcedPrefix: [answers[0]![0]!] }])).rejects.toThrow(
      /forcedPrefix, which is for ar models; a bd3 model takes the same tokens as an anchor at 0/,
    );
  }, 120_000);

  it('ar session: requests submitted one by one, each with its own length, sampling and seed, decode as generate() decodes each alone', async () => {
    const g = await ChatGenerator.load(dirs.ar, { provider: 'cpu' });
    const own = [{}, { temperature: 0.9, topK: 20 }, { maxNewTokens: 5 }, { temperature: 1.2, repetitionPenalty: 1.3, maxNewTokens: 12 }];
    const reqs = rows.map((m, i) => ({ messages: prompt(m), seed: 100 + i, ...(i === 3 ? { forcedPrefix: tok.encodeIds('You open', { addSpecialTokens: false }) } : {}) }));
    const alone = [];
    for (const [i, r] of reqs.entries()) alone.push((await g.generate([r], { maxNewTokens: 40, ...own[i % own.length] }))[0]!);
    const session = await g.openSession({ rows: 3, maxNewTokens: 40 });
    const got = await Promise.all(reqs.map((r, i) => session.submit(r, own[i % own.length])));
    expect(got.map((o) => o.text)).toEqual(alone.map((o) => o.text));
    expect(got.map((o) => o.finishReason)).toEqual(alone.map((o) => o.finishReason));
    expect(got.map((o) => o.stats.forwards)).toEqual(alone.map((o) => o.stats.forwards));
    // Not trivial: sampled texts differ from the greedy ones, and the rows shared passes.
    const sampled = [1, 3, 5, 7, 9, 11];
    const greedy = await g.generate(
      sampled.map((i) => reqs[i]!),
      { maxNewTokens: 40 },
    );
    expect(sampled.filter((i, k) => got[i]!.text !== greedy[k]!.text).length).toBeGreaterThan(0);
    expect(got[2]!.tokenIds.length).toBeLessThanOrEqual(5);
    expect(session.stats.peakRows).toBe(3);
    expect(session.stats.rowSteps / session.stats.steps).toBeGreaterThan(2);
    // A prompt past the positions left is not decoded; an aborted request rejects with its reason.
    const long = await session.submit({ messages: [{ role: 'user', content: 'open cabinet 1 '.repeat(200) }] });
    expect(long.finishReason).toBe('overlong');
    await expect(session.submit(reqs[0]!, { signal: AbortSignal.abort(new Error('client left')) })).rejects.toThrow(/client left/);
    await expect(session.submit({ messages: [] })).rejects.toThrow(/session: the request has no messages/);
    await session.close();
    const bd3 = await ChatGenerator.load(dirs.bd3, { provider: 'cpu' });
    await expect(bd3.openSession()).rejects.toThrow(/continuous decoding is for ar checkpoints; this bd3 model decodes in batches/);
  }, 120_000);

  it('bd3: the seed fixes the text, and batch size and composition do not change it', async () => {
    const g = await ChatGenerator.load(dirs.bd3, { provider: 'cpu' });
    expect(g.objective).toBe('bd3');
    expect(g.blockLength).toBe(4);
    const reqs = rows.slice(0, 6).map((m, i) => ({ messages: prompt(m), seed: 100 + i }));
    const opts = { maxNewTokens: 24, temperature: 1 };
    const together = await g.generate(reqs, { ...opts, batchSize: 6 });
    const alone = [];
    for (const r of reqs) alone.push((await g.generate([r], opts))[0]!);
    const shuffled = await g.generate([...reqs].reverse(), { ...opts, batchSize: 4 });
    expect(alone.map((o) => o.tokenIds)).toEqual(together.map((o) => o.tokenIds));
    expect([...shuffled].reverse().map((o) => o.tokenIds)).toEqual(together.map((o) => o.tokenIds));
    // A batch with two far longer prompts runs as two sampler calls; nobody's text changes.
    const long = reqs.slice(0, 2).map((r, i) => ({ messages: [{ role: 'system' as const, content: 'x '.repeat(150) }, ...r.messages], seed: 300 + i }));
    const many = [...Array.from({ length: 30 }, (_, i) => ({ ...reqs[i % 6]!, seed: 200 + i })), ...long];
    const calls: number[] = [];
    const mixed = await g.generate(many, { ...opts, maxNewTokens: 8, batchSize: 32, onBatch: (done) => calls.push(done) });
    expect(calls).toEqual([30, 32]);
    for (const k of [0, 7, 30, 31]) expect(mixed[k]!.tokenIds).toEqual((await g.generate([many[k]!], { ...opts, maxNewTokens: 8 }))[0]!.tokenIds);
    // a different seed at temperature 1 changes some text (the model is barely trained)
    const reseeded = await g.generate(
      reqs.map((r) => ({ ...r, seed: r.seed + 1000 })),
      opts,
    );
    expect(reseeded.map((o) => o.text)).not.toEqual(together.map((o) => o.text));
  }, 120_000);

  it('bd3: greedy decoding is deterministic; a text anchor is kept verbatim', async () => {
    const g = await ChatGenerator.load(dirs.bd3, { provider: 'cpu' });
    const reqs = rows.slice(0, 4).map((m, i) => ({ messages: prompt(m), seed: i }));
    const a = await g.generate(reqs, { maxNewTokens: 16 });
    const b = await g.generate(
      reqs.map((r) => ({ ...r, seed: r.seed + 7 })),
      { maxNewTokens: 16 },
    );
    expect(b.map((o) => o.text)).toEqual(a.map((o) => o.text)); // greedy draws no random numbers
    const [anchored] = await g.generate(
      [
        {
          messages: prompt(rows[0]!),
          anchors: [
            { at: 0, text: 'Nothing happens here' },
            { at: 20, tokens: [tok.requireId('<|pad|>')] },
          ],
        },
      ],
      { maxNewTokens: 24 },
    );
    expect(anchored!.text.startsWith('Nothing happens here')).toBe(true);
    expect(anchored!.tokenIds[20]).toBe(tok.requireId('<|pad|>'));
  }, 120_000);

  it('mdlm: LLaDA canvas decoding — seeded, batch-independent, anchored, cut at the first stop id', async () => {
    const g = await ChatGenerator.load(dirs.mdlm, { provider: 'cpu' });
    expect(g.objective).toBe('mdlm');
    const reqs = rows.slice(0, 3).map((m, i) => ({ messages: prompt(m), seed: i, anchors: [{ at: 2, text: 'cabinet' }] }));
    const opts = { maxNewTokens: 16, temperature: 1 };
    const together = await g.generate(reqs, opts);
    const alone = await g.generate([reqs[2]!], opts);
    expect(alone[0]!.tokenIds).toEqual(together[2]!.tokenIds);
    const cabinet = tok.encodeIds('cabinet', { addSpecialTokens: false });
    for (const o of together) {
      expect(o.stats.forwards).toBe(16 - cabinet.length); // one token per step, anchors fixed from the start
      expect(o.tokenIds.some((t) => g.stopIds.includes(t))).toBe(false);
      expect(o.tokenIds.slice(2, 2 + cabinet.length)).toEqual(cabinet); // stop ids are banned before an anchor's end
    }
  }, 60_000);

  it('skips over-long prompts, rejects bad options and checkpoints without an objective', async () => {
    const g = await ChatGenerator.load(dirs.bd3, { provider: 'cpu' });
    const [o] = await g.generate([{ messages: prompt(rows[0]!) }], { maxNewTokens: 8, maxPromptTokens: 5 });
    expect(o!.finishReason).toBe('overlong');
    expect(o!.text).toBe('');
    await expect(g.generate([{ messages: prompt(rows[0]!) }], { maxNewTokens: 0 })).rejects.toThrow('maxNewTokens must be an integer ≥ 1');
    await expect(g.generate([{ messages: [] }])).rejects.toThrow('request 0 has no messages');
    const ar = await ChatGenerator.load(dirs.ar, { provider: 'cpu' });
    await expect(ar.generate([{ messages: prompt(rows[0]!), anchors: [{ at: 0, text: 'x' }] }])).rejects.toThrow(SamplingError);
    const gc = join(dirs.ar, 'generation_config.json');
    const saved = readFileSync(gc, 'utf8');
    const { objective: _, ...rest } = JSON.parse(saved) as Record<string, unknown>;
    writeFileSync(gc, JSON.stringify(rest));
    try {
      await expect(ChatGenerator.load(dirs.ar)).rejects.toThrow(/generation_config\.json: no "objective"/);
      expect((await ChatGenerator.load(dirs.ar, { objective: 'ar', provider: 'cpu' })).objective).toBe('ar');
    } finally {
      writeFileSync(gc, saved);
    }
  }, 60_000);
});
