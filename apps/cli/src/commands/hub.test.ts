// Issue 33's Hub criteria through the CLI, against a local server that speaks the Hub's protocol:
// `wm train --init org/tiny-qwen3` downloads, caches, trains and writes a checkpoint; a second run
// with HF_HUB_OFFLINE=1 uses the cache without a request; a gated repo without a token, a missing
// file and a connection cut mid-file each exit 2 with a clear message and leave no partial blob,
// snapshot link or ref in the cache (a cut leaves only the .incomplete the next run resumes).
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { type LocalHub, TINY_WM_TOKENIZER, saveTinyQwen3, startLocalHub } from '@diffworld/mdlm-core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing.js';

const root = new URL('../../../../', import.meta.url).pathname;
const data = join(root, 'test-data/wm/alfworld-train.jsonl');
const config = join(root, 'apps/cli/configs/train-wm.tiny.json');

/** Files under a repo's cache folder, by path relative to it. */
function listing(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

let hub: LocalHub;
let model: string;
const saved: Record<string, string | undefined> = {};
const setEnv = (vars: Record<string, string | undefined>) => {
  for (const [k, v] of Object.entries(vars)) {
    if (!(k in saved)) saved[k] = process.env[k];
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
};

beforeAll(async () => {
  model = await saveTinyQwen3({ seed: 1, maxShardBytes: 40_000 }); // sharded, with the world-model tokenizer
  hub = await startLocalHub({
    'org/tiny-qwen3': { revisions: { main: model } },
    'org/gated-qwen3': { revisions: { main: model }, gated: true, tokens: ['hf_granted'] },
  });
});
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
    delete saved[k];
  }
});
afterAll(() => hub?.close());

const train = (out: string, init: string) =>
  runCli('wm', 'train', '--init', init, '--config', config, '--data', data, '--out', out, '--provider', 'cpu', '--steps', '2', '--save-every', '2', '--eval-every', '0', '--log-every', '1');

describe('Hub models in the CLI', () => {
  it('wm train --init org/tiny-qwen3 downloads, caches, trains; HF_HUB_OFFLINE=1 runs again from the cache', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'hub-cli-cache-'));
    setEnv({ HF_ENDPOINT: hub.url, HF_HUB_CACHE: cache, HF_HUB_OFFLINE: undefined, HF_TOKEN: undefined });
    const out = join(mkdtempSync(join(tmpdir(), 'hub-cli-run-')), 'run');
    const first = await train(out, 'org/tiny-qwen3');
    expect(first.code, first.err).toBe(0);
    const commit = hub.commitOf('org/tiny-qwen3');
    expect(first.err).toContain(`--init org/tiny-qwen3: commit ${commit}`);
    expect(first.err).toMatch(/downloaded org\/tiny-qwen3 model-00001-of-0000\d\.safetensors/);
    expect(first.out).toContain('bd3 world model after 2 steps');
    expect(existsSync(join(out, 'model', 'model.safetensors')) || existsSync(join(out, 'model', 'model.safetensors.index.json'))).toBe(true);
    const snapshot = join(cache, 'models--org--tiny-qwen3', 'snapshots', commit);
    expect(readFileSync(join(cache, 'models--org--tiny-qwen3', 'refs', 'main'), 'utf8')).toBe(commit);
    // The run records where its weights came from; the tokenizer is the model's own.
    expect(JSON.parse(readFileSync(join(out, 'train_config.json'), 'utf8')).init).toBe(snapshot);
    expect(readFileSync(join(out, 'model', 'tokenizer.json'), 'utf8')).toBe(readFileSync(TINY_WM_TOKENIZER, 'utf8'));

    setEnv({ HF_HUB_OFFLINE: '1', HF_ENDPOINT: 'http://127.0.0.1:9' });
    const requests = hub.requests.length;
    const out2 = join(mkdtempSync(join(tmpdir(), 'hub-cli-run-')), 'run');
    const second = await train(out2, 'org/tiny-qwen3');
    expect(second.code, second.err).toBe(0);
    expect(second.err).toContain('from the cache (offline)');
    expect(hub.requests.length).toBe(requests);
    // The same cached model serves --model in the other commands.
    const onnx = join(out2, 'm.onnx');
    const exported = await runCli('wm', 'export', '--model', 'org/tiny-qwen3', '--out', onnx);
    expect(exported.code, exported.err).toBe(0);
    expect(exported.out).toContain('qwen3 2×32');
  }, 180_000);

  it('a gated repo without a token, a missing file and a cut connection exit 2 and leave no partial file', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'hub-cli-cache-'));
    setEnv({ HF_ENDPOINT: hub.url, HF_HUB_CACHE: cache, HF_HUB_OFFLINE: undefined, HF_TOKEN: undefined });
    const out = () => join(mkdtempSync(join(tmpdir(), 'hub-cli-run-')), 'run');
    const repoDir = join(cache, 'models--org--tiny-qwen3');
    const shards = readdirSync(model).filter((f) => f.endsWith('.safetensors'));

    const gated = await train(out(), 'org/gated-qwen3');
    expect(gated.code).toBe(2);
    expect(gated.err).toContain('[hub] org/gated-qwen3');
    expect(gated.err).toContain('gated or private and no token was sent');
    expect(gated.err).toContain('HF_TOKEN');
    expect(listing(join(cache, 'models--org--gated-qwen3'))).toEqual([]);

    hub.setFault('org/tiny-qwen3', shards[1]!, { missing: true });
    const missing = await train(out(), 'org/tiny-qwen3');
    hub.setFault('org/tiny-qwen3', shards[1]!, undefined);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain(`[hub] org/tiny-qwen3: ${shards[1]}: 404 the file is not in the repository`);
    expect(listing(repoDir).filter((p) => p.startsWith('refs/') || p.endsWith('.incomplete') || p.endsWith(shards[1]!))).toEqual([]);

    const size = readFileSync(join(model, shards[0]!)).length;
    rmSync(repoDir, { recursive: true, force: true });
    hub.setFault('org/tiny-qwen3', shards[0]!, { cutAt: size >> 1 });
    const cut = await train(out(), 'org/tiny-qwen3');
    hub.setFault('org/tiny-qwen3', shards[0]!, undefined);
    expect(cut.code).toBe(2);
    expect(cut.err).toContain(`[hub] org/tiny-qwen3: ${shards[0]}: the connection was lost after ${size >> 1} of ${size} bytes`);
    const files = listing(repoDir);
    expect(files.filter((p) => p.endsWith('.incomplete'))).toHaveLength(1);
    // No blob of the weights, no snapshot link to them, no ref: only the small files and the partial one.
    expect(files.filter((p) => p.startsWith('refs/') || p.endsWith('.safetensors') || /^blobs\/[0-9a-f]{64}$/.test(p))).toEqual([]);

    // The next run resumes the partial file and trains.
    const resumed = await train(out(), 'org/tiny-qwen3');
    expect(resumed.code, resumed.err).toBe(0);
    expect(resumed.err).toContain(`resuming at`);
    expect(listing(repoDir).filter((p) => p.endsWith('.incomplete'))).toEqual([]);
  }, 180_000);
});
