import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckpointError } from './errors.js';
import { readSafetensorsHeader, type TensorToWrite } from './safetensors.js';
import { iterateShardedSafetensors, planShards, readSafetensorsIndex, readShardedSafetensors, shardFileName, writeShardedSafetensors } from './shards.js';

const root = mkdtempSync(join(tmpdir(), 'shards-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => {
  const d = join(root, String(n++));
  mkdirSync(d);
  return d;
};

/** HF-style parameter names in module order, each a [rows, 4] float32 tensor of distinct values. */
function model(rows: number[]): TensorToWrite[] {
  return rows.map((r, i) => ({
    name: i === 0 ? 'model.embed_tokens.weight' : i === rows.length - 1 ? 'lm_head.weight' : `model.layers.${i - 1}.mlp.up_proj.weight`,
    shape: [r, 4],
    data: Float32Array.from({ length: r * 4 }, (_, k) => i * 1000 + k + 0.5),
  }));
}

describe('planShards', () => {
  it('follows huggingface_hub: fill in order, split before tipping over, oversize tensors alone', () => {
    const sizes = [40, 30, 50, 200, 10, 90, 10];
    const plan = planShards(sizes, (s) => s, 100);
    // The oversize tensor is emitted as its own shard at once; the open shard keeps filling.
    expect(plan).toEqual([[40, 30], [200], [50, 10], [90, 10]]);
  });
  it('one shard when everything fits, none for nothing', () => {
    expect(planShards([1, 2, 3], (s) => s, 100)).toEqual([[1, 2, 3]]);
    expect(planShards([], (s: number) => s, 100)).toEqual([]);
  });
});

describe('sharded safetensors', () => {
  it('names shards as transformers does', () => {
    expect(shardFileName(0, 3)).toBe('model-00001-of-00003.safetensors');
    expect(shardFileName(11, 12, 'optimizer')).toBe('optimizer-00012-of-00012.safetensors');
  });

  it('writes a single model.safetensors without an index when everything fits', async () => {
    const dir = freshDir();
    const res = await writeShardedSafetensors(dir, model([2, 3, 2]), { metadata: { format: 'pt' } });
    expect(res.files).toEqual(['model.safetensors']);
    expect(res.totalSize).toBe(7 * 4 * 4);
    expect(readdirSync(dir)).toEqual(['model.safetensors']);
    expect((await readSafetensorsHeader(join(dir, 'model.safetensors'))).metadata).toEqual({ format: 'pt' });
  });

  it('round trips through shards and an index in the transformers layout (BF16)', async () => {
    const dir = freshDir();
    const tensors = model([4, 4, 4, 8, 2]); // bf16 bytes: 32, 32, 32, 64, 16 → max 70: [32,32] [32] [64] [16]
    const res = await writeShardedSafetensors(dir, tensors, { dtype: 'BF16', maxShardBytes: 70, metadata: { format: 'pt' } });
    expect(res.files).toEqual([
      'model-00001-of-00004.safetensors',
      'model-00002-of-00004.safetensors',
      'model-00003-of-00004.safetensors',
      'model-00004-of-00004.safetensors',
      'model.safetensors.index.json',
    ]);
    const indexText = readFileSync(join(dir, 'model.safetensors.index.json'), 'utf8');
    expect(indexText).toBe(
      [
        '{',
        '  "metadata": {',
        '    "total_parameters": 88,',
        '    "total_size": 176',
        '  },',
        '  "weight_map": {',
        '    "lm_head.weight": "model-00004-of-00004.safetensors",',
        '    "model.embed_tokens.weight": "model-00001-of-00004.safetensors",',
        '    "model.layers.0.mlp.up_proj.weight": "model-00001-of-00004.safetensors",',
        '    "model.layers.1.mlp.up_proj.weight": "model-00002-of-00004.safetensors",',
        '    "model.layers.2.mlp.up_proj.weight": "model-00003-of-00004.safetensors"',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    expect(JSON.parse(indexText)).toBeTruthy();
    const back = await readShardedSafetensors(dir);
    expect(back.size).toBe(5);
    for (const t of tensors) {
      const got = back.get(t.name)!;
      expect(got.dtype).toBe('BF16');
      expect(got.shape).toEqual(t.shape);
      // 0.5 + integers below 256 are exact in bfloat16; larger ones round, so compare to RNE by hand.
      const want = Array.from(t.data as Float32Array, (v) => {
        const f = new Float32Array([v]);
        const u = new Uint32Array(f.buffer);
        u[0] = ((u[0]! + 0x7fff + ((u[0]! >>> 16) & 1)) >>> 16) << 16;
        return f[0];
      });
      expect(Array.from(got.data as Float32Array)).toEqual(want);
    }
    const some = await readShardedSafetensors(dir, { names: ['lm_head.weight', 'model.embed_tokens.weight'] });
    expect([...some.keys()].sort()).toEqual(['lm_head.weight', 'model.embed_tokens.weight']);
  });

  it("switching layouts removes the other layout's files", async () => {
    const dir = freshDir();
    await writeShardedSafetensors(dir, model([4, 4, 4]), { maxShardBytes: 64 });
    expect(readdirSync(dir).sort()).toEqual(['model-00001-of-00003.safetensors', 'model-00002-of-00003.safetensors', 'model-00003-of-00003.safetensors', 'model.safetensors.index.json']);
    await writeShardedSafetensors(dir, model([4, 4, 4]), { maxShardBytes: 128 });
    expect(readdirSync(dir).sort()).toEqual(['model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors', 'model.safetensors.index.json']);
    await writeShardedSafetensors(dir, model([4, 4, 4]));
    expect(readdirSync(dir)).toEqual(['model.safetensors']);
  });

  it('names the problem when the index and its shards disagree', async () => {
    const dir = freshDir();
    await writeShardedSafetensors(dir, model([4, 4, 4]), { maxShardBytes: 64 });
    const indexPath = join(dir, 'model.safetensors.index.json');
    const index = JSON.parse(readFileSync(indexPath, 'utf8'));

    index.weight_map['lm_head.weight'] = 'model-00001-of-00003.safetensors';
    writeFileSync(indexPath, JSON.stringify(index));
    let err = await readShardedSafetensors(dir).catch((e: unknown) => e);
    expect((err as CheckpointError).issue).toMatchObject({ code: 'bad_index', tensor: 'lm_head.weight', file: indexPath });
    expect((err as Error).message).toMatch(/puts it in model-00001-of-00003.safetensors, which does not hold it/);

    index.weight_map['lm_head.weight'] = 'model-00009-of-00009.safetensors';
    writeFileSync(indexPath, JSON.stringify(index));
    err = await readShardedSafetensors(dir).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/shard model-00009-of-00009.safetensors is listed in weight_map but missing/);

    index.weight_map['lm_head.weight'] = '../escape.safetensors';
    writeFileSync(indexPath, JSON.stringify(index));
    err = await readSafetensorsIndex(indexPath).catch((e: unknown) => e);
    expect((err as CheckpointError).issue).toMatchObject({ code: 'bad_index', tensor: 'lm_head.weight' });

    writeFileSync(indexPath, '{"weight_map": [1]}');
    err = await readSafetensorsIndex(indexPath).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/"weight_map" must be an object/);

    writeFileSync(indexPath, '{"weight_map": ');
    err = await readSafetensorsIndex(indexPath).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/not valid JSON/);
  });

  it('names a requested tensor the index lacks, and a directory without weights', async () => {
    const dir = freshDir();
    await writeShardedSafetensors(dir, model([4, 4]), { maxShardBytes: 64 });
    const err = await readShardedSafetensors(dir, { names: ['nope'] }).catch((e: unknown) => e);
    expect((err as CheckpointError).issue).toMatchObject({ code: 'tensor_not_found', tensor: 'nope' });
    const empty = freshDir();
    const none = await iterateShardedSafetensors(empty)
      .next()
      .catch((e: unknown) => e);
    expect((none as CheckpointError).issue.code).toBe('bad_checkpoint');
  });
});
