// The KV-cached rollout policy gives the scorer's next-token logits (float rounding apart) while
// rows grow by appended ids — for a Qwen3 and for a tied LFM2 (conv state cached beside the KV) —
// and refuses rows that did not grow or too many episodes; closing it releases its model.
import { Rng } from '@diffworld/dataset';
import { OnnxCausalModel, parseHfConfig, initialWeights } from '@diffworld/mdlm-core';
import { describe, expect, it, vi } from 'vitest';
import { cachedPolicy } from './cached-policy.js';
import { PolicyScorer } from './score.js';

const model = parseHfConfig({
  model_type: 'qwen3',
  vocab_size: 40,
  hidden_size: 32,
  intermediate_size: 64,
  num_hidden_layers: 2,
  num_attention_heads: 2,
  num_key_value_heads: 1,
  head_dim: 16,
  tie_word_embeddings: false,
});

// LFM2, the paper's LFM2.5 policy backbone: conv / attention / conv layers, embeddings tied.
const lfm2 = parseHfConfig({
  model_type: 'lfm2',
  vocab_size: 40,
  hidden_size: 32,
  intermediate_size: 96,
  block_multiple_of: 16,
  num_hidden_layers: 3,
  num_attention_heads: 2,
  num_key_value_heads: 1,
  layer_types: ['conv', 'full_attention', 'conv'],
});

describe.each([
  ['qwen3', model],
  ['lfm2 (tied)', lfm2],
])('cachedPolicy, %s', (_, model) => {
  it('matches the scorer window logits as rows grow unevenly, in one batch', async () => {
    const params = initialWeights(model, 3);
    // Larger weights than the init so that logits differ visibly between positions.
    for (const v of Object.values(params)) for (let i = 0; i < v.length; i++) v[i]! *= 20;
    const scorer = await PolicyScorer.create(model, { batch: 3, seqLen: 48, temperature: 1 });
    const policy = await cachedPolicy(model, params, 3);
    const rng = new Rng(1);
    const rows = [[1, 2, 3], [4, 5, 6, 7, 8, 9, 10], [11]];
    for (let step = 0; step < 6; step++) {
      const want = await scorer.nextLogits(params, rows);
      const got = await policy.nextLogits(rows);
      for (let r = 0; r < rows.length; r++) for (let v = 0; v < 40; v++) expect(Math.abs(got[r]![v]! - want[r]![v]!)).toBeLessThan(2e-4);
      rows.forEach((row, r) => row.push(...Array.from({ length: 1 + ((step + r) % 3) }, () => 1 + rng.int(0, 38))));
    }
    await expect(policy.nextLogits([rows[0]!, rows[0]!])).rejects.toThrow('brings no new tokens');
    await expect(policy.nextLogits([[1, 2]])).rejects.toThrow('more than the 3 episodes');
    // Closing frees the model too: each rollout makes one, and on CUDA an unreleased one keeps its arena.
    const release = vi.spyOn(OnnxCausalModel.prototype, 'release');
    await policy.close();
    expect(release).toHaveBeenCalledTimes(1);
    release.mockRestore();
  });
});
