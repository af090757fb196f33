import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { readShard, ShardWriter, type ShardRow } from './arrow.js';

const dir = mkdtempSync(join(tmpdir(), 'dw-shards-'));

async function all(path: string): Promise<ShardRow[]> {
  const out: ShardRow[] = [];
  for await (const r of readShard(path)) out.push(r);
  return out;
}

describe('Arrow IPC shards', () => {
  it('writes batches and reads every example back, in order', async () => {
    const p = join(dir, 'a.arrow');
    const w = new ShardWriter(p, 4);
    const examples = Array.from({ length: 11 }, (_, i) => ({
      inputIds: Int32Array.from({ length: i + 1 }, (_, j) => i * 100 + j),
      lossMask: Uint8Array.from({ length: i + 1 }, (_, j) => (j > i / 2 ? 1 : 0)),
    }));
    for (const e of examples) await w.write(e);
    await w.close();
    expect(await all(p)).toEqual(examples);
    // The file is standard Arrow: apache-arrow's own table reader sees the schema and batches.
    const table = tableFromIPC(await readFile(p));
    expect(table.schema.fields.map((f) => `${f.name}:${f.type}`)).toEqual(['input_ids:List<Int32>', 'loss_mask:List<Uint8>', 'length:Int32']);
    expect(table.batches.length).toBe(3);
    expect([...table.getChild('length')!.toArray()]).toEqual(examples.map((e) => e.inputIds.length));
  });

  it('writes an empty shard that still has its schema', async () => {
    const p = join(dir, 'empty.arrow');
    const w = new ShardWriter(p);
    await w.close();
    expect(await all(p)).toEqual([]);
  });

  it('refuses a loss mask of the wrong length, and files that are not shards', async () => {
    const w = new ShardWriter(join(dir, 'bad.arrow'));
    await expect(w.write({ inputIds: [1, 2], lossMask: [1] })).rejects.toThrowError('loss_mask has 1 entries for 2 token ids');
    const junk = join(dir, 'junk.arrow');
    writeFileSync(junk, 'nope');
    await expect(all(junk)).rejects.toThrowError(/not an Arrow IPC file/);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp')).length).toBeLessThanOrEqual(1); // only the open writer's temp
  });
});
