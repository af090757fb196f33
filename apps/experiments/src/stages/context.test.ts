// eval.games: the evaluation's held-out tasks come from an imported games file (the paper's real
// games), filtered to the split, registered with the engine and hashed by content for the stage
// key; a missing file, an env without imported games and a file without the split fail by name.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { evalTasks } from '@diffworld/grpo';
import { describe, expect, it } from 'vitest';
import { loadExperimentConfig } from '../config/resolve.js';
import { ExperimentContext } from './context.js';
import type { StageRunner } from './runner.js';

const GAMES_FILE = fileURLToPath(new URL('../../../../test-data/experiments/imported-games.jsonl', import.meta.url));
const runner = {} as StageRunner; // heldoutGames does not run stages
const context = (env: string, games: string) => new ExperimentContext(loadExperimentConfig('micro', env, { eval: { games } }), runner);

describe('ExperimentContext.heldoutGames (eval.games)', () => {
  it("gives the file's games of the split, which the seeded selection then draws from", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ctx-games-')), 'games.jsonl');
    const lines = readFileSync(GAMES_FILE, 'utf8').trim().split('\n');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const held = lines.map((l) => JSON.parse(l) as { task: { id: string; split: string } }).filter((g) => g.task.split === 'eval_in_distribution');
    const ctx = context('alfworld', file);
    const got = await ctx.heldoutGames('eval_in_distribution');
    expect(got?.tasks.map((t) => t.id)).toEqual(held.map((g) => g.task.id));
    expect(held).toHaveLength(2);
    expect(got?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(got!.tasks.map((t) => t.id)).toContain(evalTasks('alfworld', 'eval_in_distribution', 1, 0, got!.tasks)[0]!.id);
    expect(evalTasks('alfworld', 'eval_in_distribution', 140, 0, got!.tasks)).toEqual(got!.tasks);
    // Another file content, another key.
    writeFileSync(file, `${lines[0]}\n`);
    expect((await context('alfworld', file).heldoutGames('eval_in_distribution'))?.sha256).not.toBe(got?.sha256);
    await expect(context('alfworld', file).heldoutGames('eval_out_of_distribution')).rejects.toThrow(`eval.games: ${file} holds no eval_out_of_distribution games`);
  });

  it('is undefined without the setting and refuses bad settings by name', async () => {
    expect(await new ExperimentContext(loadExperimentConfig('micro', 'alfworld'), runner).heldoutGames('eval_in_distribution')).toBeUndefined();
    const dir = mkdtempSync(join(tmpdir(), 'ctx-games-'));
    await expect(context('alfworld', join(dir, 'none.jsonl')).heldoutGames('eval_in_distribution')).rejects.toThrow(/none\.jsonl does not exist/);
    writeFileSync(join(dir, 'x.jsonl'), '');
    await expect(context('sciworld', join(dir, 'x.jsonl')).heldoutGames('dev')).rejects.toThrow('eval.games: sciworld has no imported games');
  });
});
