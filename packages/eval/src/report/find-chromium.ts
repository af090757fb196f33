// Finds a Chromium for the browser tests (shared/DESIGN.md "Browser tests"): Debian's package when
// installed (CI installs it), else the one that the @sparticuz/chromium npm package ships inside its
// tarball, brotli-compressed. That package downloads nothing at install time, so `npm ci` alone is
// enough; the binary is inflated once into a cache directory on first use.
import { chmodSync, createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { brotliDecompressSync, createBrotliDecompress } from 'node:zlib';

export type ChromiumFound =
  | { readonly ok: true; readonly executablePath: string; readonly env: Readonly<Record<string, string>>; readonly source: string }
  | { readonly ok: false; readonly reason: string };

const SYSTEM_CHROMIUM = '/usr/bin/chromium';
const NPM_PACKAGE = '@sparticuz/chromium';

export async function findChromium(): Promise<ChromiumFound> {
  if (existsSync(SYSTEM_CHROMIUM)) return { ok: true, executablePath: SYSTEM_CHROMIUM, env: {}, source: SYSTEM_CHROMIUM };
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    return { ok: false, reason: `no ${SYSTEM_CHROMIUM}, and ${NPM_PACKAGE} ships Chromium for linux/x64 only (this is ${process.platform}/${process.arch})` };
  }
  const root = packageRoot();
  if (!root) return { ok: false, reason: `no ${SYSTEM_CHROMIUM} and no ${NPM_PACKAGE} package (run npm ci, or apt-get install chromium)` };
  try {
    return await inflateShipped(root);
  } catch (e) {
    return { ok: false, reason: `inflating ${NPM_PACKAGE}'s Chromium failed: ${(e as Error).message}` };
  }
}

function packageRoot(): string | undefined {
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve(NPM_PACKAGE);
  } catch {
    return undefined;
  }
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === NPM_PACKAGE) return dir;
  }
  return undefined;
}

/**
 * Inflates bin/chromium.br and the NSS/expat libraries it links against (bin/al2023.tar.br, so a
 * machine without libnss3 works too) into a cache directory named by the package version. Each file
 * is written under a temporary name and renamed, and a marker written last, so an interrupted run
 * never leaves a half-written binary that a later run would trust.
 */
async function inflateShipped(root: string): Promise<ChromiumFound> {
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  const dir = join(tmpdir(), `diffworld-chromium-${version}`);
  const executablePath = join(dir, 'chromium');
  const libDir = join(dir, 'lib');
  const marker = join(dir, '.complete');
  if (!existsSync(marker)) {
    mkdirSync(libDir, { recursive: true });
    const tmp = `${executablePath}.${process.pid}.tmp`;
    await pipeline(createReadStream(join(root, 'bin', 'chromium.br')), createBrotliDecompress(), createWriteStream(tmp));
    chmodSync(tmp, 0o755);
    renameSync(tmp, executablePath);
    for (const file of untar(brotliDecompressSync(readFileSync(join(root, 'bin', 'al2023.tar.br'))))) {
      if (!file.name.startsWith('lib/') || file.name.includes('..')) continue;
      const target = join(dir, file.name);
      writeFileSync(`${target}.${process.pid}.tmp`, file.data);
      renameSync(`${target}.${process.pid}.tmp`, target);
    }
    writeFileSync(marker, version);
  }
  const ld = process.env['LD_LIBRARY_PATH'];
  return { ok: true, executablePath, env: { LD_LIBRARY_PATH: ld ? `${libDir}:${ld}` : libDir }, source: `${NPM_PACKAGE}@${version}` };
}

/** The regular files of a POSIX tar archive (512-byte headers, octal sizes). */
function* untar(tar: Buffer): Generator<{ name: string; data: Buffer }> {
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) return;
    const field = (from: number, to: number) => header.subarray(from, to).toString('latin1').replace(/\0.*$/s, '').trim();
    const prefix = field(345, 500);
    const name = (prefix ? `${prefix}/` : '') + field(0, 100).replace(/^\.\//, '');
    const size = parseInt(field(124, 136) || '0', 8);
    const type = field(156, 157);
    const start = at + 512;
    if (type === '0' || type === '') yield { name, data: tar.subarray(start, start + size) };
    at = start + Math.ceil(size / 512) * 512;
  }
}
