import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { hostTensor } from '../runtime/tensor.js';
import { loadCheckpoint, saveCheckpoint, splitSnapshot, type TensorInput } from './directory.js';
import { CheckpointError } from './errors.js';
import { readSafetensorsHeader } from './safetensors.js';
import { sweepStaleTemp } from './run-dir.js';

const root = mkdtempSync(join(tmpdir(), 'ckpt-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshParent = () => {
  const d = join(root, `run${n++}`);
  mkdirSync(d);
  return d;
};

const config = { model_type: 'llama', hidden_size: 8, num_hidden_layers: 1, vocab_size: 16, rope_theta: 10000.0, architectures: ['LlamaForCausalLM'], id2label: { '10': 'b', '2': 'a' } };

function weightsOf(seed: number): Map<string, TensorInput> {
  const t = (rows: number, cols: number, k: number) => ({ shape: [rows, cols], data: Float32Array.from({ length: rows * cols }, (_, i) => seed + k + i / 4) });
  return new Map([
    ['model.embed_tokens.weight', t(16, 8, 0)],
    ['model.layers.0.self_attn.q_proj.weight', t(8, 8, 100)],
    ['model.norm.weight', t(1, 8, 200)],
    ['lm_head.weight', t(16, 8, 300)],
  ]);
}

function momentsOf(weights: Map<string, TensorInput>, scale: number): Map<string, TensorInput> {
  const out = new Map<string, TensorInput>();
  for (const [name, w] of weights) {
    const data = w.data as Float32Array;
    out.set(`adam_m.${name}`, { shape: w.shape, data: data.map((v) => v * scale) });
    out.set(`adam_v.${name}`, { shape: w.shape, data: data.map((v) => v * v * scale) });
  }
  return out;
}

const tokenizerJson = '{"version":"1.0","model":{"type":"BPE"}}';

describe('saveCheckpoint / loadCheckpoint', () => {
  it('round trips every file of the layout (F32 weights and moments, exact)', async () => {
    const dir = join(freshParent(), 'checkpoint-000010');
    const weights = weightsOf(1);
    const optimizer = momentsOf(weights, 0.5);
    const saved = await saveCheckpoint(dir, {
      config,
      weights,
      tokenizerJson,
      generationConfig: { eos_token_id: 2, mask_token_id: 3 },
      optimizer,
      trainerState: { step: 10, tokens_seen: 1234, rng: { seed: 7 } },
    });
    expect(saved.files).toEqual(['config.json', 'generation_config.json', 'model.safetensors', 'optimizer.safetensors', 'tokenizer.json', 'trainer_state.json']);
    expect(readdirSync(dir).sort()).toEqual(saved.files);
    // config.json as transformers writes it: indent 2, keys sorted at every level, trailing newline.
    const text = readFileSync(join(dir, 'config.json'), 'utf8');
    expect(text).toBe(
      '{\n  "architectures": [\n    "LlamaForCausalLM"\n  ],\n  "hidden_size": 8,\n  "id2label": {\n    "10": "b",\n    "2": "a"\n  },\n' +
        '  "model_type": "llama",\n  "num_hidden_layers": 1,\n  "rope_theta": 10000,\n  "vocab_size": 16\n}\n',
    );
    expect((await readSafetensorsHeader(join(dir, 'model.safetensors'))).metadata).toEqual({ format: 'pt' });

    const ck = await loadCheckpoint(dir);
    expect(ck.config).toEqual(config);
    expect(ck.tokenizerJson).toBe(tokenizerJson);
    expect(ck.generationConfig).toEqual({ eos_token_id: 2, mask_token_id: 3 });
    expect(ck.trainerState).toEqual({ step: 10, tokens_seen: 1234, rng: { seed: 7 } });
    expect([...ck.weights.keys()].sort()).toEqual([...weights.keys()].sort());
    for (const [name, w] of weights) {
      const got = ck.weights.get(name)!;
      expect(got.dtype).toBe('F32');
      expect(got.shape).toEqual(w.shape);
      expect(Array.from(got.data)).toEqual(Array.from(w.data as Float32Array));
    }
    expect(ck.optimizer!.size).toBe(8);
    for (const [name, m] of optimizer) expect(Array.from(ck.optimizer!.get(name)!.data)).toEqual(Array.from(m.data as Float32Array));
  });

  it('stores BF16 weights but always F32 moments; shards when asked; loads a subset by name', async () => {
    const dir = join(freshParent(), 'ck');
    const weights = weightsOf(0.001);
    await saveCheckpoint(dir, { config, weights, dtype: 'BF16', optimizer: momentsOf(weights, 1e-3), maxShardBytes: 300 });
    const files = readdirSync(dir).sort();
    expect(files).toContain('model.safetensors.index.json');
    expect(files.filter((f) => /^model-\d{5}-of-\d{5}\.safetensors$/.test(f)).length).toBeGreaterThan(1);
    expect(files).not.toContain('tokenizer.json');
    const opt = await readSafetensorsHeader(join(dir, 'optimizer.safetensors'));
    expect(new Set([...opt.tensors.values()].map((t) => t.dtype))).toEqual(new Set(['F32']));

    const ck = await loadCheckpoint(dir, { names: ['model.norm.weight'] });
    expect([...ck.weights.keys()]).toEqual(['model.norm.weight']);
    expect([...ck.optimizer!.keys()].sort()).toEqual(['adam_m.model.norm.weight', 'adam_v.model.norm.weight']);
    const w = ck.weights.get('model.norm.weight')!;
    expect(w.dtype).toBe('BF16');
    const src = weightsOf(0.001).get('model.norm.weight')!.data as Float32Array;
    for (let i = 0; i < src.length; i++) expect(Math.abs(w.data[i]! - src[i]!)).toBeLessThanOrEqual(Math.abs(src[i]!) * 2 ** -8);
    expect(ck.tokenizerJson).toBeUndefined();
    expect((await loadCheckpoint(dir, { optimizer: false })).optimizer).toBeUndefined();
  });

  it('replaces an existing checkpoint whole: no file of the old one survives', async () => {
    const parent = freshParent();
    const dir = join(parent, 'ck');
    const w1 = weightsOf(1);
    await saveCheckpoint(dir, { config, weights: w1, optimizer: momentsOf(w1, 1), tokenizerJson, trainerState: { step: 1 } });
    await saveCheckpoint(dir, { config: { ...config, hidden_size: 9 }, weights: Object.fromEntries(weightsOf(2)) });
    expect(readdirSync(dir).sort()).toEqual(['config.json', 'model.safetensors']);
    expect(readdirSync(parent)).toEqual(['ck']);
    const ck = await loadCheckpoint(dir);
    expect(ck.config['hidden_size']).toBe(9);
    expect(ck.weights.get('model.norm.weight')!.data[0]).toBe(2 + 200);
    expect(ck.optimizer).toBeUndefined();
  });

  it('a writer that throws mid-way leaves the old checkpoint intact and no temp directory', async () => {
    const parent = freshParent();
    const dir = join(parent, 'ck');
    await saveCheckpoint(dir, { config, weights: weightsOf(1), tokenizerJson });
    const before = Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f))]));
    const weights = weightsOf(2);
    weights.set('model.zz.weight', { shape: [2], data: () => Promise.reject(new Error('GPU read failed')) });
    const err = await saveCheckpoint(dir, { config, weights, tokenizerJson }).catch((e: unknown) => e);
    expect((err as Error).message).toBe('GPU read failed');
    expect(readdirSync(parent)).toEqual(['ck']);
    const after = Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f))]));
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    for (const f of Object.keys(before)) expect(after[f]!.equals(before[f]!), f).toBe(true);
  });

  it('rejects bad input before touching the disk, naming the problem', async () => {
    const parent = freshParent();
    const dir = join(parent, 'ck');
    const weights = weightsOf(1);
    const cases: [Parameters<typeof saveCheckpoint>[1], RegExp][] = [
      [{ config, weights, optimizer: { 'momentum.x': { shape: [1], data: new Float32Array(1) } } }, /named adam_m.<param> or adam_v.<param>/],
      [{ config, weights, optimizer: { 'adam_m.nope': { shape: [1], data: new Float32Array(1) } } }, /"nope", which is not among the weights/],
      [{ config, weights, optimizer: { 'adam_v.model.norm.weight': { shape: [8], data: new Float32Array(8) } } }, /shape \[8\] differs from parameter "model.norm.weight" \[1, 8\]/],
      [{ config, weights, trainerState: { loss: Number.NaN } }, /\$\.loss is NaN/],
      [{ config, weights, tokenizerJson: '{"model":' }, /tokenizerJson is not valid JSON/],
    ];
    for (const [contents, pattern] of cases) {
      const err = await saveCheckpoint(dir, contents).catch((e: unknown) => e);
      expect(err, String(pattern)).toBeInstanceOf(CheckpointError);
      expect((err as Error).message).toMatch(pattern);
    }
    expect(readdirSync(parent)).toEqual([]);
    writeFileSync(join(parent, 'file'), 'x');
    const notDir = await saveCheckpoint(join(parent, 'file'), { config, weights }).catch((e: unknown) => e);
    expect((notDir as Error).message).toMatch(/exists and is not a directory/);
  });

  it('names what is wrong with a directory it cannot load', async () => {
    const parent = freshParent();
    const empty = join(parent, 'empty');
    mkdirSync(empty);
    let err = await loadCheckpoint(empty).catch((e: unknown) => e);
    expect((err as CheckpointError).issue).toMatchObject({ code: 'bad_checkpoint', file: empty });
    writeFileSync(join(empty, 'config.json'), '{"hidden_size": ');
    err = await loadCheckpoint(empty).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/config.json: not valid JSON/);
    writeFileSync(join(empty, 'config.json'), '[]');
    err = await loadCheckpoint(empty).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/must hold a JSON object/);
    writeFileSync(join(empty, 'config.json'), '{}');
    err = await loadCheckpoint(empty).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/neither model.safetensors nor model.safetensors.index.json/);
  });

  it('splits a StepRunner snapshot into weights and moments', () => {
    const snap = {
      'fc.weight': hostTensor('float32', Float32Array.of(1, 2), [1, 2]),
      'adam_m.fc.weight': hostTensor('float32', Float32Array.of(3, 4), [1, 2]),
      'adam_v.fc.weight': hostTensor('float32', Float32Array.of(5, 6), [1, 2]),
    };
    const { weights, optimizer } = splitSnapshot(snap);
    expect([...weights.keys()]).toEqual(['fc.weight']);
    expect([...optimizer.keys()]).toEqual(['adam_m.fc.weight', 'adam_v.fc.weight']);
    expect(weights.get('fc.weight')!.shape).toEqual([1, 2]);
    expect(() => splitSnapshot({ x: hostTensor('int32', Int32Array.of(1), [1]) })).toThrow(/only float32 state/);
  });
});

describe('a writer killed with SIGKILL', () => {
  it('leaves the previous checkpoint loadable and a temp directory the sweeper removes', async () => {
    const parent = freshParent();
    const dir = join(parent, 'checkpoint-000001');
    await saveCheckpoint(dir, { config, weights: weightsOf(1) });
    const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
    const script = join(parent, 'child.mts');
    writeFileSync(
      script,
      `
      import { saveCheckpoint } from ${JSON.stringify(join(repo, 'packages/mdlm-core/src/checkpoint/index.ts'))};
      const slow = () => new Promise(() => { process.stdout.write('writing\\n'); setInterval(() => {}, 1000); });
      await saveCheckpoint(${JSON.stringify(dir)}, { config: {}, weights: { a: { shape: [1], data: Float32Array.of(1) }, b: { shape: [1], data: slow } } });
    `,
    );
    // node itself (tsx as a loader), not the tsx CLI: the CLI would forward signals to a second process.
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@diffworld/source', script], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise((ok) => child.on('exit', ok));
    try {
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      await new Promise<void>((ok, fail) => {
        child.stdout.on('data', (d: Buffer) => d.toString().includes('writing') && ok());
        child.on('exit', (code) => fail(new Error(`child exited (${code}) before writing: ${stderr}`)));
      });
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
    const leftovers = readdirSync(parent).filter((f) => f.startsWith('.tmp-'));
    expect(leftovers).toHaveLength(1);
    expect(leftovers[0]).toMatch(new RegExp(`^\\.tmp-checkpoint-000001-${child.pid}-[0-9a-f]{8}$`));
    const ck = await loadCheckpoint(dir);
    expect(ck.weights.get('model.norm.weight')!.data[0]).toBe(1 + 200);
    const report = await sweepStaleTemp(parent);
    expect(report.removed).toEqual([join(parent, leftovers[0]!)]);
    expect(readdirSync(parent).sort()).toEqual(['checkpoint-000001', 'child.mts']);
  }, 60_000);
});
