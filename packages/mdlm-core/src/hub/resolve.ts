// A model argument (`--init`, `--model`) to a local directory: a directory that exists is used as it
// is; `org/name[@revision]` is resolved on the Hub (HF_ENDPOINT) to a commit, and the files a
// DiffWorld model needs are brought into the huggingface_hub cache, whose snapshot folder is the
// answer. With HF_HUB_OFFLINE=1, or when the Hub cannot be reached, a complete cached snapshot of the
// revision is used without asking the Hub (as transformers does).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { RepoCache } from './cache.js';
import { type DownloadProgress, type RemoteFile, downloadBlob } from './download.js';
import { HubError } from './errors.js';
import { hubFetch } from './http.js';
import { type HubModelRef, parseHubModelRef } from './reference.js';
import { type HubSettings, hubSettings } from './settings.js';

/** The files a model directory needs: config, weights (one file, or an index and its shards), tokenizer, generation settings. */
export const CONFIG_FILE_NAME = 'config.json';
export const SINGLE_WEIGHTS_FILE = 'model.safetensors';
export const WEIGHTS_INDEX_FILE = 'model.safetensors.index.json';
/** Fetched when the repository has them; tokenizer.model and other formats are not read by DiffWorld. */
export const OPTIONAL_MODEL_FILES = [
  'generation_config.json',
  'tokenizer.json',
  'tokenizer_config.json',
  'special_tokens_map.json',
  'added_tokens.json',
  'chat_template.jinja',
  'chat_template.json',
] as const;

export interface ResolveModelOptions {
  /** Settings instead of the environment's (HF_ENDPOINT, HF_HUB_CACHE, HF_TOKEN, HF_HUB_OFFLINE). */
  settings?: Partial<HubSettings>;
  /** Environment to read the settings from (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Notes (cache fallbacks, resumed downloads): stderr in the CLI. */
  log?: (line: string) => void;
  /** Byte progress of each download (see hubProgressLogger for stderr lines). */
  onProgress?: (p: DownloadProgress) => void;
  /** A request or a body that sends nothing for this long fails (ms); default 60,000. */
  timeoutMs?: number;
  /** Pause before resuming after a dropped connection (ms per attempt); default 500. */
  retryDelayMs?: number;
}

export interface ResolvedModel {
  /** The directory to load: the argument itself, or the snapshot folder in the cache. */
  dir: string;
  /** 'local': a directory as given; 'hub': checked with the Hub (files fetched as needed); 'cache': from the cache without the Hub. */
  source: 'local' | 'hub' | 'cache';
  repoId?: string;
  revision?: string;
  commit?: string;
  /** Files fetched over the network by this call. */
  downloaded: string[];
  bytesDownloaded: number;
}

/** Whether a model argument means the Hub (it is `org/name[@rev]` and no such local path exists). */
export function isHubModelSpec(spec: string): boolean {
  return !existsSync(spec) && parseHubModelRef(spec) !== undefined;
}

/** A local directory for a model argument, downloading from the Hub into its cache when needed. */
export async function resolveModelDir(spec: string, opts: ResolveModelOptions = {}): Promise<ResolvedModel> {
  if (existsSync(spec)) return { dir: spec, source: 'local', downloaded: [], bytesDownloaded: 0 };
  const ref = parseHubModelRef(spec);
  if (!ref) {
    throw new HubError({ code: 'bad_reference', repo: spec, message: 'no such directory, and not a Hub model id of the form org/name[@revision]' });
  }
  const settings: HubSettings = { ...hubSettings(opts.env ?? process.env), ...opts.settings };
  const cache = new RepoCache(settings.cacheDir, ref.repoId);
  const label = ref.explicitRevision ? `${ref.repoId}@${ref.revision}` : ref.repoId;
  if (settings.offline) {
    const cached = cachedSnapshot(cache, ref, label);
    if (cached.ok) return { dir: cached.dir, source: 'cache', repoId: ref.repoId, revision: ref.revision, commit: cached.commit, downloaded: [], bytesDownloaded: 0 };
    throw new HubError({ code: 'offline', repo: label, message: `HF_HUB_OFFLINE is set and the cache ${cache.root} does not hold this model: ${cached.why}` });
  }
  if (settings.token !== undefined && !settings.token.startsWith('hf_')) {
    throw new HubError({ code: 'bad_token', repo: label, message: 'HF_TOKEN (or the token file) holds something that is not a Hub access token (those start with hf_)' });
  }
  try {
    return await fetchSnapshot(ref, label, cache, settings, opts);
  } catch (e) {
    if (!(e instanceof HubError && e.code === 'unreachable')) throw e;
    // As transformers does: an unreachable Hub is not fatal when the revision is cached whole.
    const cached = cachedSnapshot(cache, ref, label);
    if (!cached.ok) throw e;
    opts.log?.(`${label}: ${e.issue.message}; using the cached snapshot ${cached.commit}`);
    return { dir: cached.dir, source: 'cache', repoId: ref.repoId, revision: ref.revision, commit: cached.commit, downloaded: [], bytesDownloaded: 0 };
  }
}

type Cached = { ok: true; dir: string; commit: string } | { ok: false; why: string };

/** The cached snapshot of a revision, when it holds config.json and every weight file. */
function cachedSnapshot(cache: RepoCache, ref: HubModelRef, label: string): Cached {
  const commit = cache.commitOf(ref.revision);
  if (!commit) return { ok: false, why: COMMIT_OR_REF(ref) };
  const dir = cache.snapshotDir(commit);
  if (!cache.hasFile(commit, CONFIG_FILE_NAME)) return { ok: false, why: `snapshot ${commit} has no ${CONFIG_FILE_NAME}` };
  let weights: string[];
  if (cache.hasFile(commit, WEIGHTS_INDEX_FILE)) weights = shardsOf(join(dir, WEIGHTS_INDEX_FILE), label);
  else weights = [SINGLE_WEIGHTS_FILE];
  const missing = weights.filter((w) => !cache.hasFile(commit, w));
  if (missing.length) return { ok: false, why: `snapshot ${commit} lacks ${missing.join(', ')}` };
  return { ok: true, dir, commit };
}

const COMMIT_OR_REF = (ref: HubModelRef) => (/^[0-9a-f]{40}$/.test(ref.revision) ? `no snapshot of commit ${ref.revision}` : `no refs/${ref.revision} (never downloaded)`);

/** The shard files an index names, sorted (shard 1 first). */
function shardsOf(indexPath: string, label: string): string[] {
  let index: { weight_map?: unknown };
  try {
    index = JSON.parse(readFileSync(indexPath, 'utf8'));
  } catch (e) {
    throw new HubError({ code: 'bad_response', repo: label, file: WEIGHTS_INDEX_FILE, message: `not valid JSON (${(e as Error).message})` });
  }
  const map = index.weight_map;
  if (!map || typeof map !== 'object' || Array.isArray(map)) throw new HubError({ code: 'bad_response', repo: label, file: WEIGHTS_INDEX_FILE, message: 'has no "weight_map" object' });
  const files = Object.values(map as Record<string, unknown>);
  const bad = files.find((f) => typeof f !== 'string' || f.includes('..') || f.startsWith('/'));
  if (bad !== undefined) throw new HubError({ code: 'bad_response', repo: label, file: WEIGHTS_INDEX_FILE, message: `weight_map names ${JSON.stringify(bad)}, not a file of the repository` });
  return [...new Set(files as string[])].sort();
}

async function fetchSnapshot(ref: HubModelRef, label: string, cache: RepoCache, settings: HubSettings, opts: ResolveModelOptions): Promise<ResolvedModel> {
  // Loaded here, not at import: it takes ~0.4 s, and local or offline models never need it.
  const { listFiles, modelInfo } = await import('@huggingface/hub');
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const api = { hubUrl: settings.endpoint, fetch: hubFetch(label, timeoutMs), ...(settings.token ? { accessToken: settings.token } : {}) };
  const info = await modelInfo({ ...api, name: ref.repoId, revision: ref.revision, additionalFields: ['sha'] });
  const commit = info.sha;
  if (typeof commit !== 'string' || !/^[0-9a-f]{40}$/.test(commit))
    throw new HubError({ code: 'bad_response', repo: label, message: `the model info has no commit sha (got ${JSON.stringify(commit)})` });
  // The root of the tree at that commit: sizes and hashes of every file a model directory needs.
  const tree = new Map<string, RemoteFile>();
  for await (const entry of listFiles({ ...api, repo: { type: 'model', name: ref.repoId }, revision: commit })) {
    if (entry.type !== 'file') continue;
    const etag = entry.lfs?.oid ?? entry.oid;
    if (!etag) throw new HubError({ code: 'bad_response', repo: label, file: entry.path, message: 'the tree gives no oid for the file' });
    tree.set(entry.path, {
      path: entry.path,
      size: entry.lfs?.size ?? entry.size,
      etag,
      ...(entry.lfs ? { sha256: entry.lfs.oid } : { gitOid: entry.oid! }),
    });
  }
  if (!tree.has(CONFIG_FILE_NAME)) throw new HubError({ code: 'incomplete_repo', repo: label, message: `the repository has no ${CONFIG_FILE_NAME} at commit ${commit}` });
  if (!tree.has(WEIGHTS_INDEX_FILE) && !tree.has(SINGLE_WEIGHTS_FILE)) {
    const other = [...tree.keys()].filter((f) => /\.(bin|pt|pth|gguf|ckpt|h5|msgpack)$/.test(f));
    throw new HubError({
      code: 'incomplete_repo',
      repo: label,
      message: `the repository has no safetensors weights (${SINGLE_WEIGHTS_FILE} or ${WEIGHTS_INDEX_FILE}) at commit ${commit}${other.length ? `; it has ${other.slice(0, 3).join(', ')}` : ''}`,
    });
  }

  const result: ResolvedModel = { dir: cache.snapshotDir(commit), source: 'hub', repoId: ref.repoId, revision: ref.revision, commit, downloaded: [], bytesDownloaded: 0 };
  const bring = async (path: string) => {
    const file = tree.get(path);
    if (!file) throw new HubError({ code: 'entry_not_found', repo: label, file: path, message: `${WEIGHTS_INDEX_FILE} names this shard, but the repository has no such file at commit ${commit}` });
    if (cache.hasFile(commit, path) && statSync(join(result.dir, path)).size === file.size) return;
    if (cache.blobSize(file.etag) !== file.size) {
      const n = await downloadBlob({
        repo: label,
        url: `${settings.endpoint}/${ref.repoId}/resolve/${commit}/${path.split('/').map(encodeURIComponent).join('/')}`,
        token: settings.token,
        file,
        blobPath: cache.blobPath(file.etag),
        incompletePath: cache.incompletePath(file.etag),
        lockPath: cache.lockPath(file.etag),
        timeoutMs,
        ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
        ...(opts.log ? { log: opts.log } : {}),
        ...(opts.retryDelayMs !== undefined ? { retryDelayMs: opts.retryDelayMs } : {}),
      });
      result.downloaded.push(path);
      result.bytesDownloaded += n;
    }
    await cache.linkSnapshotFile(commit, path, file.etag);
  };

  await bring(CONFIG_FILE_NAME);
  for (const f of OPTIONAL_MODEL_FILES) if (tree.has(f)) await bring(f);
  if (tree.has(WEIGHTS_INDEX_FILE)) {
    await bring(WEIGHTS_INDEX_FILE);
    for (const shard of shardsOf(join(result.dir, WEIGHTS_INDEX_FILE), label)) await bring(shard);
  } else {
    await bring(SINGLE_WEIGHTS_FILE);
  }
  // Only now, with every file linked, does the revision point at this snapshot.
  cache.writeRef(ref.revision, commit);
  return result;
}
