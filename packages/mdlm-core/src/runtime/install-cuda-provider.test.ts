// Unit tests of tools/install-cuda-provider.mjs (file selection, tarball unpacking, options); the
// real 180 MB download is exercised by `node tools/install-cuda-provider.mjs --dry-run`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CUDA_PROVIDER_FILES } from './providers.js';

interface Picked {
  from: string;
  to: string;
}
interface InstallTool {
  PACKAGE: string;
  PROVIDER_FILES: readonly string[];
  selectProviderFiles(paths: readonly string[]): Picked[];
  installFromTarball(tarball: string, files: readonly Picked[], target: string, work: string): string[];
  parseOptions(argv: readonly string[]): { dryRun: boolean; force: boolean; help: boolean };
}

const toolUrl = new URL('../../../../tools/install-cuda-provider.mjs', import.meta.url);
const tool = (await import(toolUrl.href)) as InstallTool;

/** The file list `npm pack --dry-run --json com.github.asus4.onnxruntime.linux-x64-gpu@0.4.9` printed. */
const PACKAGE_FILES = [
  '.attestation.p7m',
  'LICENSE',
  'LICENSE.meta',
  'Plugins.meta',
  'Plugins/Linux.meta',
  'Plugins/Linux/x64.meta',
  'Plugins/Linux/x64/libonnxruntime_providers_cuda.so',
  'Plugins/Linux/x64/libonnxruntime_providers_cuda.so.meta',
  'Plugins/Linux/x64/libonnxruntime_providers_shared.so',
  'Plugins/Linux/x64/libonnxruntime_providers_shared.so.meta',
  'Plugins/Linux/x64/libonnxruntime_providers_tensorrt.so',
  'Plugins/Linux/x64/libonnxruntime_providers_tensorrt.so.meta',
  'README.md',
  'package.json',
];

describe('tools/install-cuda-provider.mjs', () => {
  it('installs exactly the files the runtime probes for', () => {
    expect(tool.PROVIDER_FILES).toEqual(CUDA_PROVIDER_FILES);
    expect(tool.PACKAGE).toBe('com.github.asus4.onnxruntime.linux-x64-gpu@0.4.9');
  });

  it('selects the CUDA and shared provider libraries, not TensorRT nor Unity .meta files', () => {
    const want = [
      { from: 'package/Plugins/Linux/x64/libonnxruntime_providers_cuda.so', to: 'libonnxruntime_providers_cuda.so' },
      { from: 'package/Plugins/Linux/x64/libonnxruntime_providers_shared.so', to: 'libonnxruntime_providers_shared.so' },
    ];
    expect(tool.selectProviderFiles(PACKAGE_FILES)).toEqual(want);
    expect(tool.selectProviderFiles(PACKAGE_FILES.map((p) => `package/${p}`))).toEqual(want);
  });

  it('says what is missing when the package layout changes', () => {
    const withoutCuda = PACKAGE_FILES.filter((p) => !p.endsWith('providers_cuda.so'));
    expect(() => tool.selectProviderFiles(withoutCuda)).toThrowError(
      /does not contain Plugins\/Linux\/x64\/libonnxruntime_providers_cuda\.so \(it lists Plugins\/Linux\/x64\/libonnxruntime_providers_shared\.so, Plugins\/Linux\/x64\/libonnxruntime_providers_tensorrt\.so\); the package layout changed/,
    );
  });

  it('unpacks the selected files of a tarball into the target folder, executable', () => {
    const root = mkdtempSync(join(tmpdir(), 'dw-cuda-ep-test-'));
    const pkg = join(root, 'src', 'package', 'Plugins', 'Linux', 'x64');
    mkdirSync(pkg, { recursive: true });
    for (const f of ['libonnxruntime_providers_cuda.so', 'libonnxruntime_providers_shared.so', 'libonnxruntime_providers_tensorrt.so']) writeFileSync(join(pkg, f), `bytes of ${f}`);
    const tarball = join(root, 'p.tgz');
    expect(spawnSync('tar', ['-czf', tarball, '-C', join(root, 'src'), 'package']).status).toBe(0);
    const target = join(root, 'target');
    const work = join(root, 'work');
    mkdirSync(target);
    mkdirSync(work);
    const picked = tool.selectProviderFiles(PACKAGE_FILES);
    const installed = tool.installFromTarball(tarball, picked, target, work);
    expect(installed).toEqual(picked.map((p) => join(target, p.to)));
    expect(readFileSync(join(target, 'libonnxruntime_providers_cuda.so'), 'utf8')).toBe('bytes of libonnxruntime_providers_cuda.so');
    expect(statSync(join(target, 'libonnxruntime_providers_shared.so')).mode & 0o111).toBe(0o111);
    expect(existsSync(join(target, 'libonnxruntime_providers_tensorrt.so'))).toBe(false);
    expect(() => tool.installFromTarball(join(root, 'absent.tgz'), picked, target, work)).toThrowError(/could not unpack .*absent\.tgz/);
  });

  it('parses --dry-run / --force and rejects unknown options with the usage', () => {
    expect(tool.parseOptions(['--dry-run'])).toEqual({ dryRun: true, force: false, help: false });
    expect(tool.parseOptions(['--force', '--help'])).toEqual({ dryRun: false, force: true, help: true });
    expect(() => tool.parseOptions(['--dryrun'])).toThrowError(/unknown option "--dryrun"[\s\S]*Usage: node tools\/install-cuda-provider\.mjs/);
  });
});
