// `diffworld repro`: help and bad input (the stages themselves are tested end to end in
// apps/experiments/src/repro/repro.test.ts on the micro preset the Nx targets use).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../testing.js';

describe('diffworld repro', () => {
  it('has help naming the stages and an example', async () => {
    const r = await runCli('repro', '--help');
    expect(r.code).toBe(0);
    expect(r.out).toContain('Usage: diffworld repro <alfworld|sciworld|appworld>');
    expect(r.out).toContain('replay-*');
    expect(r.out).toContain('npx nx run cli:repro:alfworld');
  });

  it('bad input exits 2 and names what is wrong', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'repro-cli-'));
    const write = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    const cases: [string[], string][] = [
      [[], 'missing argument: env'],
      [['mars'], 'unknown env "mars"'],
      [['alfworld', 'sciworld'], 'unexpected argument "sciworld"'],
      [['alfworld', '--config', join(dir, 'none.json')], 'no such file'],
      [['alfworld', '--config', write('bad.json', '{')], 'not valid JSON'],
      [['alfworld', '--config', write('key.json', '{"steering": {"anchors": 2}}')], 'steering.anchors: unknown key, did you mean anchorTokens?'],
      [['alfworld', '--config', 'nosuchpreset'], 'no preset "nosuchpreset"'],
      [['alfworld', '--set', 'fidelity.samples=1'], 'fidelity.samples: value must be ≥ 2, got 1'],
      [['alfworld', '--config', write('env.json', '{"env": "appworld"}')], 'env: the file is for "appworld", not "alfworld"'],
    ];
    for (const [args, message] of cases) {
      const r = await runCli('repro', ...args, '--out', join(dir, 'out'));
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err, args.join(' ')).toContain(message);
    }
  });
});
