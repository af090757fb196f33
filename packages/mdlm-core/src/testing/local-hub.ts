// A Hugging Face Hub on 127.0.0.1 for tests and offline sites: it serves model directories with the
// part of the Hub's HTTP protocol that model downloads use — model info at a revision, the tree with
// git / LFS ids and sizes, and resolve/<rev>/<file> (HEAD and GET, Range requests, X-Repo-Commit,
// ETag, X-Linked-Etag / X-Linked-Size, LFS files redirected to a storage path as the Hub does) — and
// the Hub's errors (GatedRepo, RepoNotFound, RevisionNotFound, EntryNotFound). Faults can be set per
// file: a connection cut at a byte offset, a short body, a corrupted byte, a missing file.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface LocalHubRepo {
  /** Model directory per revision name; `main` is the default branch. */
  revisions: Readonly<Record<string, string>>;
  /** Gated: a request needs `Authorization: Bearer <one of tokens>`. */
  gated?: boolean;
  /** Tokens with access to a gated repo. */
  tokens?: readonly string[];
}

export interface LocalHubFault {
  /** Destroy the connection once the response reaches this byte offset of the file. */
  cutAt?: number;
  /** Send only the first `truncateTo` bytes, with a Content-Length that matches (a clean, short answer). */
  truncateTo?: number;
  /** Flip one byte of the file. */
  corrupt?: boolean;
  /** Answer 404 EntryNotFound for the file (it stays in the tree). */
  missing?: boolean;
}

export interface LocalHubRequest {
  method: string;
  path: string;
  range?: string;
  authorization?: string;
}

export interface LocalHub {
  /** `http://127.0.0.1:<port>`: what HF_ENDPOINT should be. */
  readonly url: string;
  /** Every request, in order. */
  readonly requests: LocalHubRequest[];
  /** The commit hash a revision of a repo resolves to. */
  commitOf(repoId: string, revision?: string): string;
  /** Sets (or with undefined clears) the fault of one file of a repo. */
  setFault(repoId: string, file: string, fault: LocalHubFault | undefined): void;
  close(): Promise<void>;
}

interface HostedFile {
  path: string;
  bytes: Buffer;
  lfs: boolean;
  sha256: string;
  /** The git blob id: of the contents, or of the LFS pointer for LFS files. */
  oid: string;
  pointerSize: number;
}

interface HostedRevision {
  commit: string;
  files: Map<string, HostedFile>;
}

const gitBlobId = (b: Buffer) => createHash('sha1').update(`blob ${b.length}\0`).update(b).digest('hex');
// As on the Hub: weights and other binaries go to LFS, text files stay in git.
const isLfs = (path: string, size: number) => /\.(safetensors|bin|pt|onnx|gguf)$/.test(path) || size > 10 * 2 ** 20;

function readTree(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((e) => {
    if (e.name.startsWith('.')) return [];
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    return e.isDirectory() ? readTree(dir, rel) : [rel];
  });
}

function host(repoId: string, name: string, dir: string): HostedRevision {
  const files = new Map<string, HostedFile>();
  const commit = createHash('sha1').update(`${repoId}\0${name}`);
  for (const path of readTree(dir).sort()) {
    const bytes = readFileSync(join(dir, path));
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const lfs = isLfs(path, bytes.length);
    const pointer = Buffer.from(`version https://git-lfs.github.com/spec/v1\noid sha256:${sha256}\nsize ${bytes.length}\n`);
    files.set(path, { path, bytes, lfs, sha256, oid: gitBlobId(lfs ? pointer : bytes), pointerSize: pointer.length });
    commit.update(`${path}\0${sha256}\0`);
  }
  return { commit: commit.digest('hex'), files };
}

/** Starts a local Hub serving `repos` (by `org/name`). */
export async function startLocalHub(repos: Readonly<Record<string, LocalHubRepo>>): Promise<LocalHub> {
  const hosted = new Map<string, { repo: LocalHubRepo; revisions: Map<string, HostedRevision> }>();
  for (const [id, repo] of Object.entries(repos)) {
    if (!statSync(repo.revisions['main'] ?? '').isDirectory()) throw new Error(`startLocalHub: ${id} needs a "main" revision directory`);
    hosted.set(id, { repo, revisions: new Map(Object.entries(repo.revisions).map(([name, dir]) => [name, host(id, name, dir)])) });
  }
  const faults = new Map<string, LocalHubFault>();
  const requests: LocalHubRequest[] = [];

  const byCommitOrName = (id: string, rev: string): HostedRevision | undefined => {
    const h = hosted.get(id)!;
    return h.revisions.get(rev) ?? [...h.revisions.values()].find((r) => r.commit === rev);
  };

  const fail = (res: ServerResponse, status: number, code: string, message: string) => {
    res.writeHead(status, { 'content-type': 'application/json', 'x-error-code': code, 'x-error-message': message });
    res.end(JSON.stringify({ error: message }));
  };

  // The Hub's order of checks: the repository (hidden from anonymous callers), access, the revision.
  const repoFor = (req: IncomingMessage, res: ServerResponse, id: string): boolean => {
    const h = hosted.get(id);
    const auth = req.headers.authorization;
    if (!h) {
      fail(res, auth ? 404 : 401, 'RepoNotFound', `Repository not found for url: ${req.url}.`);
      return false;
    }
    if (h.repo.gated) {
      const token = auth?.replace(/^Bearer /, '');
      if (!token) {
        fail(res, 401, 'GatedRepo', `Access to model ${id} is restricted. You must have access to it and be authenticated to access it. Please log in.`);
        return false;
      }
      if (!(h.repo.tokens ?? []).includes(token)) {
        fail(res, 403, 'GatedRepo', `Access to model ${id} is restricted and you are not in the authorized list. Visit https://huggingface.co/${id} to ask for access.`);
        return false;
      }
    }
    return true;
  };

  const treeEntry = (f: HostedFile) => ({
    type: 'file',
    oid: f.oid,
    size: f.bytes.length,
    path: f.path,
    ...(f.lfs ? { lfs: { oid: f.sha256, size: f.bytes.length, pointerSize: f.pointerSize } } : {}),
  });

  const sendFile = (req: IncomingMessage, res: ServerResponse, rev: HostedRevision, f: HostedFile, fault: LocalHubFault | undefined) => {
    let bytes = f.bytes;
    if (fault?.corrupt) {
      bytes = Buffer.from(bytes);
      const mid = bytes.length >> 1;
      bytes[mid] = bytes[mid]! ^ 0xff;
    }
    const total = bytes.length;
    let start = 0;
    let end = total; // exclusive
    const range = req.headers.range;
    let status = 200;
    if (range) {
      const m = /^bytes=(\d+)-(\d*)$/.exec(range);
      if (!m || Number(m[1]) >= total) {
        res.writeHead(416, { 'content-range': `bytes */${total}` });
        res.end();
        return;
      }
      start = Number(m[1]);
      if (m[2]) end = Math.min(total, Number(m[2]) + 1);
      status = 206;
    }
    if (fault?.truncateTo !== undefined) end = Math.min(end, Math.max(start, fault.truncateTo));
    const headers: Record<string, string | number> = {
      'content-type': 'application/octet-stream',
      'accept-ranges': 'bytes',
      'content-length': end - start,
      'x-repo-commit': rev.commit,
      etag: `"${f.lfs ? f.sha256 : f.oid}"`,
    };
    if (status === 206) headers['content-range'] = `bytes ${start}-${end - 1}/${total}`;
    res.writeHead(status, headers);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const cut = fault?.cutAt;
    if (cut !== undefined && cut < end) {
      // Send up to the cut, then drop the connection as a failing network would.
      if (cut > start) res.write(bytes.subarray(start, cut));
      setTimeout(() => res.socket?.destroy(), 20);
      return;
    }
    res.end(bytes.subarray(start, end));
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = decodeURIComponent(url.pathname);
    requests.push({
      method: req.method ?? 'GET',
      path,
      ...(req.headers.range ? { range: req.headers.range } : {}),
      ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
    });
    let m: RegExpExecArray | null;
    if ((m = /^\/api\/models\/([^/]+\/[^/]+)\/revision\/(.+)$/.exec(path))) {
      const [, id, rev] = m;
      if (!repoFor(req, res, id!)) return;
      const r = byCommitOrName(id!, rev === 'HEAD' ? 'main' : rev!);
      if (!r) return fail(res, 404, 'RevisionNotFound', `Invalid rev id: ${rev}`);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          _id: createHash('sha1').update(id!).digest('hex').slice(0, 24),
          id,
          sha: r.commit,
          private: false,
          gated: hosted.get(id!)!.repo.gated ? 'manual' : false,
          downloads: 0,
          likes: 0,
          lastModified: '2026-01-01T00:00:00.000Z',
          pipeline_tag: 'text-generation',
          siblings: [...r.files.keys()].map((rfilename) => ({ rfilename })),
        }),
      );
      return;
    }
    if ((m = /^\/api\/models\/([^/]+\/[^/]+)\/tree\/([^/]+)(?:\/(.*))?$/.exec(path))) {
      const [, id, rev, sub] = m;
      if (!repoFor(req, res, id!)) return;
      const r = byCommitOrName(id!, rev!);
      if (!r) return fail(res, 404, 'RevisionNotFound', `Invalid rev id: ${rev}`);
      const recursive = url.searchParams.get('recursive') === 'true';
      const prefix = sub ? `${sub.replace(/\/$/, '')}/` : '';
      const entries: object[] = [];
      const dirs = new Set<string>();
      for (const f of r.files.values()) {
        if (!f.path.startsWith(prefix)) continue;
        const rest = f.path.slice(prefix.length);
        if (!recursive && rest.includes('/')) dirs.add(prefix + rest.split('/')[0]!);
        else entries.push(treeEntry(f));
      }
      for (const d of dirs) entries.push({ type: 'directory', oid: createHash('sha1').update(d).digest('hex'), size: 0, path: d });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(entries));
      return;
    }
    if ((m = /^\/lfs-storage\/([^/]+\/[^/]+)\/([0-9a-f]{40})\/(.+)$/.exec(path))) {
      // Where resolve/ sends LFS files, as the Hub sends them to its storage (no token needed there).
      const [, id, commit, file] = m;
      const r = hosted.has(id!) ? byCommitOrName(id!, commit!) : undefined;
      const f = r?.files.get(file!);
      if (!r || !f) return fail(res, 404, 'EntryNotFound', `${file} does not exist`);
      return sendFile(req, res, r, f, faults.get(`${id}\0${file}`));
    }
    if ((m = /^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(path))) {
      const [, id, rev, file] = m;
      if (!repoFor(req, res, id!)) return;
      const r = byCommitOrName(id!, rev!);
      if (!r) return fail(res, 404, 'RevisionNotFound', `Invalid rev id: ${rev}`);
      const f = r.files.get(file!);
      const fault = faults.get(`${id}\0${file}`);
      if (!f || fault?.missing) return fail(res, 404, 'EntryNotFound', `${file} does not exist on "${rev}"`);
      if (f.lfs) {
        res.writeHead(302, {
          location: `/lfs-storage/${id}/${r.commit}/${file}`,
          'x-repo-commit': r.commit,
          'x-linked-etag': `"${f.sha256}"`,
          'x-linked-size': f.bytes.length,
          etag: `"${f.oid}"`,
        });
        res.end();
        return;
      }
      return sendFile(req, res, r, f, fault);
    }
    fail(res, 404, 'NotFound', `no route for ${req.method} ${path}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    commitOf: (id, revision = 'main') => {
      const r = hosted.get(id)?.revisions.get(revision);
      if (!r) throw new Error(`startLocalHub: no revision ${revision} of ${id}`);
      return r.commit;
    },
    setFault: (id, file, fault) => {
      if (fault) faults.set(`${id}\0${file}`, fault);
      else faults.delete(`${id}\0${file}`);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}
