// policy.init: the pipeline's policy from a pretrained checkpoint, as a directory or a Hub model
// (a local server speaking the Hub's protocol), with its own tokenizer and an untied LM head.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { type LocalHub, TINY_WM_TOKENIZER as TOKENIZER, saveTinyQwen3, startLocalHub } from '@diffworld/mdlm-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { loadExperimentConfig, resolveExperimentConfig } from './config/resolve.js';
import { loadInitialPolicy } from './policy-init.js';

/** The tiny tied qwen3 with the given tokenizer.json, or none. */
const tinyTiedQwen3 = (tokenizerJson: string | undefined) => saveTinyQwen3({ seed: 3, tokenizerJson: tokenizerJson ?? null });

let hub: LocalHub;
let model: string;
beforeAll(async () => {
  model = await tinyTiedQwen3(readFileSync(TOKENIZER, 'utf8'));
  hub = await startLocalHub({ 'org/tiny-agent': { revisions: { main: model } } });
});
afterAll(() => hub?.close());

describe('loadInitialPolicy', () => {
  it('takes a Hub model into the cache, with its tokenizer, and unties its LM head', async () => {
    const saved = { endpoint: process.env['HF_ENDPOINT'], cache: process.env['HF_HUB_CACHE'] };
    process.env['HF_ENDPOINT'] = hub.url;
    process.env['HF_HUB_CACHE'] = mkdtempSync(join(tmpdir(), 'policy-cache-'));
    try {
      const lines: string[] = [];
      const p = await loadInitialPolicy('org/tiny-agent', (l) => lines.push(l));
      expect(p.dir).toContain(join('models--org--tiny-agent', 'snapshots', hub.commitOf('org/tiny-agent')));
      expect(p.model.tieEmbeddings).toBe(false);
      expect(p.config['tie_word_embeddings']).toBe(false);
      expect(p.params['lm_head.weight']).toEqual(p.params['model.embed_tokens.weight']);
      expect(p.params['lm_head.weight']).not.toBe(p.params['model.embed_tokens.weight']); // a copy: the head trains on its own
      expect(p.tokenizer.vocabSize).toBe(512);
      expect(p.tokenizerJson).toBe(readFileSync(TOKENIZER, 'utf8'));
      expect(lines.join('\n')).toContain('tied embeddings: the LM head starts as their copy');
    } finally {
      for (const [k, v] of [
        ['HF_ENDPOINT', saved.endpoint],
        ['HF_HUB_CACHE', saved.cache],
      ] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it('reads a directory (relative to the config file that names it), and refuses a checkpoint without a ChatML tokenizer', async () => {
    const file = join(dirname(model), 'run.json');
    writeFileSync(file, JSON.stringify({ env: 'alfworld', policy: { init: basename(model) } }));
    const c = loadExperimentConfig(file, undefined);
    expect(c.policy.init).toBe(model);
    const p = await loadInitialPolicy(c.policy.init!);
    expect(p.dir).toBe(model);
    const bare = await tinyTiedQwen3(undefined);
    await expect(loadInitialPolicy(bare)).rejects.toThrow('has no tokenizer.json');
    const renamed = readFileSync(TOKENIZER, 'utf8').replaceAll('<|im_end|>', '<|eot|>');
    const other = await tinyTiedQwen3(renamed);
    await expect(loadInitialPolicy(other)).rejects.toThrow('its tokenizer has no <|im_end|>');
  });

  it('is a known setting, a Hub id kept as written, and must be a non-empty string', () => {
    expect(resolveExperimentConfig({ env: 'alfworld', policy: { init: 'Qwen/Qwen3-0.6B' } }).policy.init).toBe('Qwen/Qwen3-0.6B');
    expect(() => resolveExperimentConfig({ env: 'alfworld', policy: { init: '' } })).toThrow('policy.init: length must be ≥ 1');
  });
});
