import { describe, expect, it } from 'vitest';
import { importedPackages, packageName } from './imports.js';

describe('importedPackages', () => {
  it('finds static imports, re-exports, side-effect and literal dynamic imports', () => {
    const js = [
      "import { z } from 'zod';",
      'import {',
      '  Piscina,',
      "} from 'piscina';",
      "export * from '@diffworld/dataset';",
      "export { parse } from '@huggingface/jinja/dist/index.js';",
      "import 'better-sqlite3';",
      'export async function hub() {',
      "  const { listFiles } = await import('@huggingface/hub');",
      '}',
    ].join('\n');
    expect(importedPackages(js)).toEqual(['@diffworld/dataset', '@huggingface/hub', '@huggingface/jinja', 'better-sqlite3', 'piscina', 'zod']);
  });

  it('leaves out node builtins, relative paths and comments that mention an import', () => {
    const js = [
      "import { readFileSync } from 'node:fs';",
      "import { join } from 'path';",
      "import { stat } from 'fs/promises';",
      "import { x } from './x.js';",
      "// import { expect } from 'vitest';",
      " * the worker imports { run } from 'tsx' itself",
    ].join('\n');
    expect(importedPackages(js)).toEqual([]);
  });
});

describe('packageName', () => {
  it('cuts a subpath off plain and scoped names', () => {
    expect(packageName('hyparquet-compressors/src/index.js')).toBe('hyparquet-compressors');
    expect(packageName('@huggingface/hub')).toBe('@huggingface/hub');
    expect(packageName('@scope/name/sub/path')).toBe('@scope/name');
  });
});
