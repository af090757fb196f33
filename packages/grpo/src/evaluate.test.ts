// An evaluation played in parts (eval.chunk: each part a range of the seeded task selection) merges
// to exactly the one-pass evaluation — records, per-task-type summaries and intervals — even when
// sampling, because every task keeps its index's rng; bad ranges and mismatched parts are refused.
import { fileURLToPath } from 'node:url';
import { envSuite } from '@diffworld/envs';
import { initialWeights, parseHfConfig } from '@diffworld/mdlm-core';
import { Tokenizer } from '@diffworld/tokenizer';
import { describe, expect, it } from 'vitest';
import { ChatTurnCodec } from './chat-codec.js';
import { PolicyScorer } from './score.js';
import { evaluatePolicy, mergeEvaluations, type PolicyEvalOptions } from './evaluate.js';
import { realEngineSource } from './sources.js';

const TOKENIZER = fileURLToPath(new URL('../../../test-data/tokenizer/ours.tokenizer.json', import.meta.url));

describe('evaluatePolicy in parts', () => {
  it('merges ranges of the task selection into the one-pass evaluation, sampled at T 1', async () => {
    const tok = Tokenizer.load(TOKENIZER);
    const suite = envSuite('alfworld');
    const model = parseHfConfig(
      {
        model_type: 'qwen3',
        vocab_size: tok.vocabSize,
        hidden_size: 16,
        intermediate_size: 32,
        num_hidden_layers: 1,
        num_attention_heads: 2,
        num_key_value_heads: 1,
        head_dim: 8,
        tie_word_embeddings: false,
      },
      'test',
    );
    const params = initialWeights(model, 5);
    const codec = new ChatTurnCodec(tok, { system: suite.agent.system() });
    const scorer = await PolicyScorer.create(model, { batch: 1, seqLen: 4096, temperature: 1, provider: 'cpu' });
    const opts: PolicyEvalOptions = {
      source: realEngineSource(suite),
      split: suite.splits[1]!,
      tasks: 5,
      seed: 3,
      temperature: 1,
      label: 'parts',
      cache: 'kv',
      provider: 'cpu',
      limits: { maxTurns: 2, maxTokensPerTurn: 4, maxSeqLen: 4096 },
    };
    const whole = await evaluatePolicy(scorer, params, codec, opts);
    const parts = [
      await evaluatePolicy(scorer, params, codec, { ...opts, range: { from: 0, to: 2 } }),
      await evaluatePolicy(scorer, params, codec, { ...opts, range: { from: 2, to: 4 } }),
      await evaluatePolicy(scorer, params, codec, { ...opts, range: { from: 4, to: 9 } }), // clipped to the 5 tasks
    ];
    expect(parts.map((p) => p.records.length)).toEqual([2, 2, 1]);
    const merged = mergeEvaluations(parts);
    expect(merged.records).toEqual(whole.records);
    expect(merged.summary.overall).toEqual(whole.summary.overall);
    expect(merged.summary.byTaskType).toEqual(whole.summary.byTaskType);
    // Sampled completions differ between tasks: the test would not pass with a shared rng by accident.
    expect(new Set(whole.records.map((r) => JSON.stringify(r.actions))).size).toBeGreaterThan(1);

    await expect(evaluatePolicy(scorer, params, codec, { ...opts, range: { from: 5, to: 7 } })).rejects.toThrow('selects none of its 5 tasks');
    const other = await evaluatePolicy(scorer, params, codec, { ...opts, label: 'other', range: { from: 0, to: 1 } });
    expect(() => mergeEvaluations([parts[0]!, other])).toThrow('differs');
  }, 120_000);
});
