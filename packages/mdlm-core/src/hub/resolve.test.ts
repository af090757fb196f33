// Hub downloads against a local server that speaks the Hub's protocol: the cache layout Python's
// huggingface_hub writes (and reads), only the needed files, resume after a cut connection, checks of
// size and hashes, offline use, and the errors of gated, missing and broken repositories — each
// leaving nothing half-written in the cache.
import { createHash } from 'node:crypto';
import { lstatSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../checkpoint/directory.js';
import { TINY_WM_TOKENIZER, type LocalHub, saveTinyQwen3, startLocalHub } from '../testing/index.js';
import { HubError } from './errors.js';
import { parseHubModelRef } from './reference.js';
import { type ResolveModelOptions, resolveModelDir } from './resolve.js';
import { hubSettings } from './settings.js';

/** The tiny qwen3 (untied, so an LM head shard too), in shards, plus files a model does not need. */
async function tinyModelDir(seed: number, maxShardBytes?: number): Promise<string> {
  const dir = await saveTinyQwen3({ seed, tied: false, generationConfig: { eos_token_id: 0 }, ...(maxShardBytes ? { maxShardBytes } : {}) });
  writeFileSync(join(dir, 'README.md'), '# tiny qwen3\n');
  writeFileSync(join(dir, 'pytorch_model.bin'), Buffer.alloc(4096, 7)); // another format: never fetched
  return dir;
}

/** Every path under the cache with its kind: what a reader (Python or ours) would find there. */
function cacheListing(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(`${relative(root, p)}${e.isSymbolicLink() ? ` -> ${readlinkSync(p)}` : ''}`);
    }
  };
  try {
    walk(root);
  } catch {
    // An absent cache lists nothing.
  }
  return out.sort();
}

let hub: LocalHub;
let sharded: string;
let single: string;
let other: string;
const TOKEN = 'hf_localtesttoken';

beforeAll(async () => {
  sharded = await tinyModelDir(1, 40_000); // config, index, shards, tokenizer, generation config
  single = await tinyModelDir(2);
  other = await tinyModelDir(3);
  const broken = await tinyModelDir(4, 40_000);
  const index = JSON.parse(readFileSync(join(broken, 'model.safetensors.index.json'), 'utf8'));
  const [firstTensor] = Object.keys(index.weight_map);
  index.weight_map[firstTensor!] = 'model-00009-of-00009.safetensors';
  writeFileSync(join(broken, 'model.safetensors.index.json'), JSON.stringify(index));
  const noConfig = await tinyModelDir(5);
  const { rmSync } = await import('node:fs');
  rmSync(join(noConfig, 'config.json'));
  hub = await startLocalHub({
    'org/tiny-qwen3': { revisions: { main: sharded, 'v1.0': other } },
    'org/tiny-single': { revisions: { main: single } },
    'org/gated-qwen3': { revisions: { main: single }, gated: true, tokens: [TOKEN] },
    'org/broken-index': { revisions: { main: broken } },
    'org/no-config': { revisions: { main: noConfig } },
  });
});
afterAll(() => hub?.close());

function options(cache: string, extra: Record<string, string> = {}): ResolveModelOptions {
  return { env: { HF_ENDPOINT: hub.url, HF_HUB_CACHE: cache, ...extra }, retryDelayMs: 1 };
}

async function failure(p: Promise<unknown>): Promise<HubError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(HubError);
  return e as HubError;
}

describe('resolveModelDir', () => {
  it('downloads a sharded model into the huggingface_hub layout, only the files a model needs', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'hub-cache-'));
    const before = hub.requests.length;
    const r = await resolveModelDir('org/tiny-qwen3', options(cache));
    const commit = hub.commitOf('org/tiny-qwen3');
    const repo = join(cache, 'models--org--tiny-qwen3');
    expect(r).toMatchObject({ source: 'hub', repoId: 'org/tiny-qwen3', revision: 'main', commit, dir: join(repo, 'snapshots', commit) });
    expect(readFileSync(join(repo, 'refs', 'main'), 'utf8')).toBe(commit); // no newline, as Python writes it
    const wanted = readdirSync(sharded)
      .filter((f) => f !== 'README.md' && f !== 'pytorch_model.bin')
      .sort();
    expect(wanted.filter((f) => f.endsWith('.safetensors')).length).toBeGreaterThan(1);
    expect([...r.downloaded].sort()).toEqual(wanted);
    const fetched = hub.requests.slice(before).map((q) => q.path);
    expect(fetched.some((p) => p.includes('README.md') || p.includes('pytorch_model.bin'))).toBe(false);

    // Snapshot entries are relative links to blobs named by sha256 (LFS) or the git blob id.
    for (const f of wanted) {
      const link = join(r.dir, f);
      expect(lstatSync(link).isSymbolicLink(), f).toBe(true);
      const bytes = readFileSync(join(sharded, f));
      const etag = f.endsWith('.safetensors') ? createHash('sha256').update(bytes).digest('hex') : createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
      expect(readlinkSync(link), f).toBe(`../../blobs/${etag}`);
      expect(readFileSync(link).equals(bytes), f).toBe(true);
    }
    expect(cacheListing(repo).filter((p) => p.endsWith('.incomplete'))).toEqual([]);

    // The snapshot is a checkpoint directory: it loads with the weights that were written.
    const [ours, original] = await Promise.all([loadCheckpoint(r.dir, { optimizer: false }), loadCheckpoint(sharded, { optimizer: false })]);
    expect([...ours.weights.keys()]).toEqual([...original.weights.keys()]);
    for (const [k, w] of original.weights) expect(ours.weights.get(k)!.data).toEqual(w.data);

    // Again, online: the Hub is asked for the commit and tree, no file is fetched again.
    const again = hub.requests.length;
    const r2 = await resolveModelDir('org/tiny-qwen3', options(cache));
    expect(r2).toMatchObject({ dir: r.dir, source: 'hub', downloaded: [] });
    expect(hub.requests.slice(again).every((q) => q.path.startsWith('/api/'))).toBe(true);

    // Offline: no request at all.
    const offline = hub.requests.length;
    const r3 = await resolveModelDir('org/tiny-qwen3', options(cache, { HF_HUB_OFFLINE: '1' }));
    expect(r3).toMatchObject({ dir: r.dir, source: 'cache', commit });
    expect(hub.requests.length).toBe(offline);
  });

  it('resolves @revision to its commit, writes refs/<revision> and shares blobs across snapshots', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'hub-cache-'));
    await resolveModelDir('org/tiny-qwen3', options(cache));
    const r = await resolveModelDir('org/tiny-qwen3@v1.0', options(cache));
    const commit = hub.commitOf('org/tiny-qwen3', 'v1.0');
    expect(r.commit).toBe(commit);
    expect(readFileSync(join(cache, 'models--org--tiny-qwen3', 'refs', 'v1.0'), 'utf8')).toBe(commit);
    // tokenizer.json is the same file in both revisions: one blob, and not fetched twice.
    expect(r.downloaded).not.toContain('tokenizer.json');
    const byCommit = await resolveModelDir(`org/tiny-qwen3@${commit}`, options(cache, { HF_HUB_OFFLINE: '1' }));
    expect(byCommit.dir).toBe(r.dir);
  });

  it('gated repositories: 401 without a token, 403 with a token that has no access, downloads with one that has', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'hub-cache-'));
    const noToken = await failure(resolveModelDir('org/gated-qwen3', options(cache)));
    expect(noToken.code).toBe('gated');
    expect(noToken.message).toContain('401');
    expect(noToken.message).toContain('HF_TOKEN');
    const wrong = await failure(resolveModelDir('org/gated-qwen3', options(cache, { HF_TOKEN: 'hf_someoneelse' })));
    expect(wrong.code).toBe('gated');
    expect(wrong.message).toContain('403');
    expect((await failure(resolveModelDir('org/gated-qwen3', options(cache, { HF_TOKEN: 'not-a-token' })))).code).toBe('bad_token');
    expect(cacheListing(cache).filter((p) => !p.startsWith('.locks'))).toEqual([]);

    const before = hub.requests.length;
    const r = await resolveModelDir('org/gated-qwen3', options(cache, { HF_TOKEN: TOKEN }));
    expect(r.downloaded).toContain('model.safetensors');
    expect(
      hub.requests
        .slice(before)
        .filter((q) => !q.path.startsWith('/lfs-storage/'))
        .every((q) => q.authorization === `Bearer ${TOKEN}`),
    ).toBe(true);
  });

  it('reads the token from $HF_HOME/token as `hf auth login` leaves it', () => {
    const home = mkdtempSync(join(tmpdir(), 'hf-home-'));
    writeFileSync(join(home, 'token'), `${TOKEN}\n`);
    expect(hubSettings({ HF_HOME: home })).toMatchObject({ token: TOKEN, cacheDir: join(home, 'hub'), endpoint: 'https://huggingface.co', offline: false });
    expect(hubSettings({ HF_HOME: home, HF_TOKEN: 'hf_env', HF_HUB_OFFLINE: 'true', HF_ENDPOINT: 'http://mirror/' })).toMatchObject({ token: 'hf_env', offline: true, endpoint: 'http://mirror' });
  });

  it('missing repositories, revisions and files are named, and leave no ref, snapshot or blob behind', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'hub-cache-'));
    expect((await failure(resolveModelDir('org/nothing-here', options(cache)))).code).toBe('repo_not_found');
    expect((await failure(resolveModelDir('org/tiny-qwen3@v9', options(cache)))).code).toBe('revision_not_found');
    const noConfig = await failure(resolveModelDir('org/no-config', options(cache)));
    expect(noConfig.code).toBe('incomplete_repo');
    expect(noConfig.message).toContain('config.json');

    const shard = await failure(resolveModelDir('org/broken-index', options(cache)));
    expect(shard.code).toBe('entry_not_found');
    expect(shard.message).toContain('model-00009-of-00009.safetensors');
    const repo = join(cache, 'models--org--broken-index');
    expect(cacheListing(repo).some((p) => p.startsWith('refs/'))).toBe(false);

    hub.setFault('org/tiny-single', 'model.safetensors', { missing: true });
    try {
      const missing = await failure(resolveModelDir('org/tiny-single', options(cache)));
      expect(missing.code).toBe('entry_not_found');
      expect(missing.message).toContain('model.safetensors');
      expect(missing.message).toContain('404');
      const listing = cacheListing(join(cache, 'models--org--tiny-single'));
      expect(listing.some((p) => p.startsWith('refs/') || p.includes('model.safetensors') || p.endsWith('.incomplete'))).toBe(false);
    } finally {
      hub.setFault('org/tiny-single', 'model.safetensors', undefined);
    }
  });

  it('a connection cut mid-file leaves only an .incomplete, which the next run resumes with a Range request', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'hub-cache-'));
    const size = readFileSync(join(single, 'model.safetensors')).length;
    const cutAt = Math.floor(size / 2);
    hub.setFault('org/tiny-single', 'model.safetensors', { cutAt });
    const repo = join(cache, 'models--org--tiny-single');
    try {
      const e = await failure(resolveModelDir('org/tiny-single', options(cache)));
      expect(e.code).toBe('interrupted');
      expect(e.message).toContain(`after ${cutAt} of ${size} bytes`);
    } finally {
      hub.setFault('org/tiny-single', 'model.safetensors', undefined);
    }
    const listing = cacheListing(repo);
    const incomplete = listing.filter((p) => p.endsWith('.incomplete'));
    expect(incomplete).toHaveLength(1);
    expect(lstatSync(join(repo, incomplete[0]!)).size).toBe(cutAt);
    expect(listing.some((p) => p.startsWith('refs/') || p.endsWith('model.safetensors') || /^blobs\/[0-9a-f]{64}$/.test(p))).toBe(false);

    const before = hub.requests.length;
    const r = await resolveModelDir('org/tiny-single', options(cache));
    expect(hub.requests.slice(before).some((q) => q.range === `bytes=${cutAt}-`)).toBe(true);
    expect(r.bytesDownloaded).toBeLessThan(size); // only the rest of the weights (and the small files)
    expect(readFileSync(join(r.dir, 'model.safetensors')).equals(readFileSync(join(single, 'model.safetensors')))).toBe(true);
    expect(cacheListing(repo).filter((p) => p.endsWith('.incomplete'))).toEqual([]);
  });

  it('a short body is kept for resuming; a corrupted file fails its sha256 check and is removed', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'hub-cache-'));
    const repo = join(cache, 'models--org--tiny-single');
    hub.setFault('org/tiny-single', 'model.safetensors', { truncateTo: 1000 });
    const short = await failure(resolveModelDir('org/tiny-single', options(cache)));
    expect(short.code).toBe('truncated');
    expect(short.message).toContain('after 1000 of');
    hub.setFault('org/tiny-single', 'model.safetensors', { corrupt: true });
    const bad = await failure(resolveModelDir('org/tiny-single', options(cache)));
    hub.setFault('org/tiny-single', 'model.safetensors', undefined);
    expect(bad.code).toBe('checksum');
    expect(bad.message).toContain('sha256');
    const listing = cacheListing(repo);
    expect(listing.some((p) => p.endsWith('.incomplete') || p.startsWith('refs/') || p.endsWith('model.safetensors'))).toBe(false);
    // A stale .incomplete longer than the file (left by another version of it) is started over.
    const sha = createHash('sha256')
      .update(readFileSync(join(single, 'model.safetensors')))
      .digest('hex');
    writeFileSync(join(repo, 'blobs', `${sha}.incomplete`), Buffer.alloc(readFileSync(join(single, 'model.safetensors')).length + 10));
    const r = await resolveModelDir('org/tiny-single', options(cache));
    expect(r.downloaded).toContain('model.safetensors');
    expect(readFileSync(join(r.dir, 'model.safetensors')).equals(readFileSync(join(single, 'model.safetensors')))).toBe(true);
  });

  it('offline without the model in the cache, an unreachable Hub, and bad references are clear errors', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'hub-cache-'));
    const offline = await failure(resolveModelDir('org/tiny-single', options(cache, { HF_HUB_OFFLINE: '1' })));
    expect(offline.code).toBe('offline');
    expect(offline.message).toContain('HF_HUB_OFFLINE');
    const dead = { env: { HF_ENDPOINT: 'http://127.0.0.1:9', HF_HUB_CACHE: cache } };
    expect((await failure(resolveModelDir('org/tiny-single', dead))).code).toBe('unreachable');
    // With the model cached, an unreachable Hub falls back to the cache, saying so.
    await resolveModelDir('org/tiny-single', options(cache));
    const notes: string[] = [];
    const r = await resolveModelDir('org/tiny-single', { ...dead, log: (l) => notes.push(l) });
    expect(r.source).toBe('cache');
    expect(notes.join('\n')).toContain('using the cached snapshot');

    const bad = await failure(resolveModelDir('/no/such/dir', options(cache)));
    expect(bad.code).toBe('bad_reference');
    expect((await resolveModelDir(TINY_WM_TOKENIZER, options(cache))).source).toBe('local'); // an existing path is used as it is
  });
});

describe('parseHubModelRef', () => {
  it('accepts org/name[@revision] as huggingface_hub validates ids', () => {
    expect(parseHubModelRef('Qwen/Qwen3-0.6B')).toEqual({ repoId: 'Qwen/Qwen3-0.6B', revision: 'main', explicitRevision: false });
    expect(parseHubModelRef('org/name@refs/pr/1')).toEqual({ repoId: 'org/name', revision: 'refs/pr/1', explicitRevision: true });
    for (const bad of ['gpt2', 'a/b/c', 'org/na--me', 'org/-x', 'org/x.', 'org/x@', './org/x', 'org/x@a b']) expect(parseHubModelRef(bad), bad).toBeUndefined();
  });
});
