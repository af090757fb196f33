// `grpo train` end to end on the micro preset (2-layer d=32 models, 2 GRPO steps per source): every
// stage leaves its result, the report lists all four policies with intervals and says what the run
// cannot tell, a second invocation skips everything, a changed setting reruns only the stages that
// read it, and a run killed with SIGKILL during SFT, during GRPO in the world model and again during
// GRPO in the real engine resumes to the same final checkpoints as the uninterrupted run, byte for
// byte — through the CLI, with the real engine stepped in a 2-thread env pool.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExperimentConfig } from './config/resolve.js';
import { runGrpoTrain } from './grpo-train.js';

const CLI = new URL('../../cli/bin/diffworld.mjs', import.meta.url).pathname;
const micro = () => loadExperimentConfig('micro', 'alfworld');

/** The one directory of stage `name` in a run. */
function stageDir(out: string, name: string): string {
  const dirs = readdirSync(join(out, 'stages')).filter((d) => d.startsWith(`${name}-`) && /^[0-9a-f]{16}$/.test(d.slice(name.length + 1)));
  expect(dirs, `stages of ${name} in ${out}`).toHaveLength(1);
  return join(out, 'stages', dirs[0]!);
}

const FINAL = ['sft', 'grpo-world-model', 'grpo-real'];
const finalWeights = (out: string) => FINAL.map((s) => readFileSync(join(stageDir(out, s), 'policy', 'model.safetensors')));

function cli(out: string, killWhen?: RegExp): Promise<{ code: number | null; killed: boolean; log: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [CLI, 'grpo', 'train', '--env', 'alfworld', '--config', 'micro', '--out', out, '--env-workers', '2'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    let killed = false;
    p.stdout.on('data', (d: Buffer) => (log += d.toString()));
    p.stderr.on('data', (d: Buffer) => {
      log += d.toString();
      if (killWhen && !killed && killWhen.test(log)) killed = p.kill('SIGKILL');
    });
    p.on('error', reject);
    p.on('close', (code) => resolve({ code, killed, log }));
  });
}

describe('runGrpoTrain', () => {
  it('runs every stage, reports each policy on held-out games, skips done stages and resumes killed ones to the same weights', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'grpo-train-')), 'run');
    const lines: string[] = [];
    const r = await runGrpoTrain({ config: micro(), out, log: (l) => lines.push(l) });
    for (const s of ['tokenizer', 'data', 'train-ar', 'train-bd3', 'policy-base', 'sft', 'eval-base', 'eval-sft', 'grpo-world-model', 'eval-grpo-world-model', 'grpo-real', 'eval-grpo-real'])
      expect(existsSync(join(stageDir(out, s), 'result.json')), s).toBe(true);
    for (const f of ['grpo-world-model-step1.json', 'grpo-world-model-step1.part-00000.json']) expect(existsSync(join(stageDir(out, 'grpo-world-model'), 'evals', f)), f).toBe(true);
    for (const f of ['report.md', 'report.html', 'config.json', 'metrics.jsonl']) expect(existsSync(join(out, f)), f).toBe(true);
    expect(r.report.policies.map((p) => p.name)).toEqual(['base', 'sft', 'sft+rl(world model)', 'sft+rl(real)']);
    for (const p of r.report.policies) {
      expect(p.summary.split).toBe('eval_in_distribution');
      expect(p.summary.overall.episodes).toBe(2);
      const [lo, hi] = p.summary.overall.successCI95;
      expect(lo).toBeLessThanOrEqual(p.summary.overall.successRate);
      expect(hi).toBeGreaterThanOrEqual(p.summary.overall.successRate);
    }
    expect(r.reportMarkdown).toContain('| all |');
    expect(r.reportMarkdown).toContain('Sim-to-real gap');
    // Two held-out games a policy: the report says the comparison is too small to read.
    expect(r.reportMarkdown).toContain('## What this run cannot tell');
    expect(r.report.warnings.some((w) => w.startsWith('Only 2 held-out episodes per policy'))).toBe(true);
    expect(r.reportMarkdown).toContain('World model: trained here, bd3');
    // Which share of the world-model arm's transitions the world model answered (the responder the rest); the real arm has none.
    const [wmRun, realRun] = r.report.grpoRuns;
    expect(wmRun!.worldModelShare).toBeGreaterThanOrEqual(0);
    expect(wmRun!.worldModelShare).toBeLessThanOrEqual(1);
    expect(realRun!.worldModelShare).toBeUndefined();
    expect(r.reportMarkdown).toContain('| transitions answered by the world model |');
    expect(r.reportHtml).toContain('<table id="success">');
    const metrics = readFileSync(join(out, 'metrics.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { stage: string; step?: number });
    for (const stage of ['train-bd3', 'sft', 'eval', 'grpo-world-model', 'grpo-real'])
      expect(
        metrics.some((m) => m.stage === stage),
        stage,
      ).toBe(true);
    expect(metrics.filter((m) => m.stage === 'grpo-world-model').map((m) => m.step)).toEqual([1, 2]);
    expect(lines.some((l) => l.startsWith('[grpo-world-model] step 2/2'))).toBe(true);

    // Everything is done: another invocation starts no stage.
    const again: string[] = [];
    await runGrpoTrain({ config: micro(), out, log: (l) => again.push(l) });
    expect(again.filter((l) => / start \(/.test(l))).toEqual([]);
    // Killed with SIGKILL right after SFT's first checkpoint, resumed and killed after GRPO's first
    // step checkpoint in the world model, resumed and killed after the first checkpoint of GRPO in
    // the real engine, then resumed to the end: SFT and both GRPO stages continue from their step-1
    // checkpoint (weights, AdamW moments, step counters) and reach the same final checkpoints, byte
    // for byte — with the real engine's steps in a piscina env pool, where the uninterrupted run
    // stepped it in-process. The tokenizer, data and world model are copied to keep the test short.
    const killedOut = join(mkdtempSync(join(tmpdir(), 'grpo-kill-')), 'run');
    for (const s of ['tokenizer', 'data', 'train-ar', 'train-bd3']) cpSync(stageDir(out, s), join(killedOut, 'stages', stageDir(out, s).split('/').at(-1)!), { recursive: true });
    const k0 = await cli(killedOut, /\[sft\] checkpoint step 1 saved/);
    expect(k0.killed, k0.log).toBe(true);
    expect(k0.log).toMatch(/\[train-ar\] cached \([0-9a-f]{16}\), skipped/);
    expect(k0.log).toMatch(/\[train-bd3\] cached \([0-9a-f]{16}\), skipped/);
    const k1 = await cli(killedOut, /\[grpo-world-model\] checkpoint step 1 saved/);
    expect(k1.killed, k1.log).toBe(true);
    expect(k1.log).toContain('[sft] resumed at step 1');
    const k2 = await cli(killedOut, /\[grpo-real\] checkpoint step 1 saved/);
    expect(k2.killed, k2.log).toBe(true);
    expect(k2.log).toContain('[grpo-world-model] resumed at step 1');
    // Killed between the step-1 checkpoint and the evaluation due at step 1 (which takes seconds,
    // the kill milliseconds): the resume plays it.
    expect(k2.log).toContain('[eval:grpo-world-model-step1] success');
    const resumed = await cli(killedOut);
    expect(resumed.code, resumed.log).toBe(0);
    expect(resumed.log).toMatch(/\[grpo-world-model\] cached/);
    expect(resumed.log).toContain('[grpo-real] resumed at step 1');
    // The CLI's last line: every policy's held-out success with its interval, and where the report is.
    const last = resumed.log.trim().split('\n').at(-1)!;
    expect(last).toMatch(
      /^grpo alfworld: eval_in_distribution, 2 games — base \d\/2 [\d.]+% \[[\d.]+, [\d.]+\] · sft \d\/2 .* · sft\+rl\(world model\) \d\/2 .* · sft\+rl\(real\) \d\/2 .* · RL gain over SFT: world model [+-][\d.]+ pts \[[+-][\d.]+, [+-][\d.]+\], real [+-][\d.]+ pts \[[+-][\d.]+, [+-][\d.]+\] — report \S*report\.md$/,
    );
    expect(last).toContain(join(killedOut, 'report.md'));
    const a = finalWeights(killedOut);
    const b = finalWeights(out);
    FINAL.forEach((s, i) => expect(a[i]!.equals(b[i]!), s).toBe(true));

    // A changed GRPO setting reruns GRPO and what reads it, nothing upstream.
    const changed: string[] = [];
    const c = micro();
    await runGrpoTrain({ config: { ...c, grpo: { ...c.grpo, lr: c.grpo.lr * 2 } }, out, log: (l) => changed.push(l) });
    expect(changed.filter((l) => / start \(/.test(l)).map((l) => l.slice(1, l.indexOf(']')))).toEqual(['grpo-world-model', 'eval-grpo-world-model', 'grpo-real', 'eval-grpo-real']);

    // Only the real-engine arm, no base evaluation: no world-model stage is even looked up, and the
    // arm's stages are the ones the full run made (grpo.arms and eval.base are not stage inputs).
    const realOnly: string[] = [];
    const only = await runGrpoTrain({ config: { ...c, grpo: { ...c.grpo, arms: ['real'] }, eval: { ...c.eval, base: false } }, out, log: (l) => realOnly.push(l) });
    expect(realOnly.filter((l) => / start \(/.test(l))).toEqual([]);
    expect(realOnly.map((l) => l.slice(1, l.indexOf(']'))).filter((s) => /^(data|train-|eval-base|grpo-world-model)/.test(s))).toEqual([]);
    expect(only.report.policies.map((p) => p.name)).toEqual(['sft', 'sft+rl(real)']);
    expect(only.report.rlGain.worldModel).toBeUndefined();
    expect(only.report.rlGain.real?.pairs).toBe(2);
    expect(only.reportMarkdown).toContain('World model: none.');
  }, 1_500_000);
});
