// runRepro end to end on the micro config (2-layer d=32 world models and policies, 3 seeds): every
// stage leaves result.json, the report carries the paper's tables with our numbers, a second run
// skips every stage and gives the same results, and a changed setting reruns only the stages that
// read it. Plus the pieces that need no model: config checks, stage hashing, intervals.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@diffworld/config';
import { Tokenizer } from '@diffworld/tokenizer';
import { describe, expect, it } from 'vitest';
import { loadExperimentConfig, resolveExperimentConfig } from '../config/resolve.js';
import { StageRunner, canonicalJson, stageHash } from '../stages/runner.js';
import { renderReproHtml, renderReproMarkdown } from './report.js';
import { type ReproResults, runRepro } from './repro.js';
import { meanInterval } from './rq2.js';

const micro = () => loadExperimentConfig('micro', 'alfworld');

describe('experiment config', () => {
  it('fills defaults, and refuses unknown keys, wrong types and out-of-range values, naming the key path', () => {
    const d = resolveExperimentConfig({ env: 'sciworld' });
    expect(d.seeds).toEqual([0, 1, 2]);
    expect(d.rollout.maxTurns).toBe(50);
    expect(d.grpo).toMatchObject({ groupSize: 8, temperature: 0.9, topP: 0.95, epsilon: 0.2, weightDecay: 0 });
    expect(d.worldModel.sampling).toEqual({ temperature: 0, topP: 1, repetitionPenalty: 1.3, maxNewTokens: 256, threshold: 0.85 });
    expect(micro().fidelity.samples).toBe(2);
    expect(loadExperimentConfig('repro-gpu', 'appworld').seeds.length).toBeGreaterThanOrEqual(3);
    const bad = (file: unknown, message: string) => {
      let err: unknown;
      try {
        resolveExperimentConfig(file, { env: 'alfworld', where: 'f.json' });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).issues.map((i) => `${i.path}: ${i.message}`)).toContain(message);
    };
    bad({ grpo: { epsilom: 0.3 } }, 'grpo.epsilom: unknown key, did you mean epsilon?');
    bad({ fidelty: {} }, 'fidelty: unknown key, did you mean fidelity?');
    bad({ fidelity: { samples: 1 } }, 'fidelity.samples: value must be ≥ 2, got 1');
    bad({ sft: { lr: 'x' } }, 'sft.lr: must be a number, got "x"');
    bad({ worldModel: { train: { stesp: 3 } } }, 'worldModel.train.stesp: unknown key, did you mean steps?');
    bad({ seeds: [1, 1] }, 'seeds: must not repeat a seed');
    bad({ env: 'sciworld' }, 'env: the file is for "sciworld", not "alfworld"');
    expect(() => resolveExperimentConfig({ env: 'marsworld' })).toThrow(/env: must be one of "alfworld", "sciworld", "appworld", got "marsworld"/);
  });
});

describe('stage runner', () => {
  it('hashes inputs independently of key order and runs a stage once', async () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe('{"a":[{"c":3,"d":2}],"b":1}');
    expect(stageHash('s', { a: 1, b: 2 })).toBe(stageHash('s', { b: 2, a: 1 }));
    expect(stageHash('s', { a: 1 })).not.toBe(stageHash('s', { a: 2 }));
    expect(stageHash('s', { a: 1 })).not.toBe(stageHash('t', { a: 1 }));
    const runner = new StageRunner(mkdtempSync(join(tmpdir(), 'repro-cache-')), () => {}, 'test session');
    let runs = 0;
    const work = async () => ({ n: ++runs });
    const a = await runner.run('x', { k: 1 }, work);
    const b = await runner.run('x', { k: 1 }, work);
    const c = await runner.run('x', { k: 2 }, work);
    expect([a.cached, b.cached, c.cached]).toEqual([false, true, false]);
    expect(b.result).toEqual({ n: 1 });
    expect(c.result).toEqual({ n: 2 });
    expect(existsSync(join(a.dir, 'result.json'))).toBe(true);
    // Who finished it is stored with the result, and listed once per stage directory.
    expect(b.session).toBe('test session');
    expect(runner.outcomes.map((o) => o.hash)).toEqual([a.hash, c.hash]);
    expect(Object.keys(runner.timings())).toEqual(['x']);
  });
});

describe('intervals over seeds', () => {
  it('gives the t-interval of the mean, clamped to [0, 1]', () => {
    const r = meanInterval([0.2, 0.4, 0.6]);
    expect(r.mean).toBeCloseTo(0.4, 12);
    // sd 0.2, se 0.2/√3, t(2) 4.303 → ±0.4969
    expect(r.ci95[0]).toBe(0);
    expect(r.ci95[1]).toBeCloseTo(0.4 + 4.303 * (0.2 / Math.sqrt(3)), 9);
    expect(meanInterval([0.5])).toEqual({ mean: 0.5, ci95: [0.5, 0.5] });
  });
});

describe('report of results written before prefix forcing', () => {
  it('renders the recorded H200 results.json with an empty AR prefix-forced column', async () => {
    const recorded = new URL('../../../../docs/repro/h200/alfworld/results.json', import.meta.url).pathname;
    const old = JSON.parse(readFileSync(recorded, 'utf8')) as ReproResults;
    expect(old.steering.ar.prefixForced).toBeUndefined();
    const md = renderReproMarkdown(old);
    expect(md).toMatch(/\| fields kept \/ written \| 100\.0% \| \d+\.\d% \| — \| \d+\.\d% \|/);
    expect(md).toContain('These results predate prefix forcing');
    expect(await renderReproHtml(old)).toContain('<th>AR prefix-forced</th>');
  });
});

describe('runRepro on the micro config', () => {
  it('runs on episode-layout rows: one training row per episode, one held-out row per step, bd3 adapted from ar, both recording the layout', async () => {
    const c = micro();
    c.corpus = { ...c.corpus, layout: 'episode', diversify: false };
    c.seeds = [0];
    const out = mkdtempSync(join(tmpdir(), 'repro-episode-'));
    const { results: r } = await runRepro({ config: c, out });
    expect(r.data.trainRows).toBe(c.corpus.trainEpisodes);
    expect(r.data.heldoutRows).toBeGreaterThan(c.corpus.heldoutEpisodes);
    expect(r.stages.map((s) => s.stage).slice(0, 4)).toEqual(['tokenizer', 'data', 'train-ar', 'train-bd3']);
    for (const obj of ['ar', 'bd3'] as const) {
      const stage = r.stages.find((s) => s.stage === `train-${obj}`)!;
      const gc = JSON.parse(readFileSync(join(out, 'stages', `train-${obj}-${stage.hash}`, 'run', 'model', 'generation_config.json'), 'utf8')) as Record<string, unknown>;
      expect(gc['world_model_layout']).toBe('episode');
      expect(r.fidelity[obj].rows).toBeGreaterThan(0);
      expect(r.replay[obj].transitions).toBeGreaterThan(0);
    }
    const bd3 = r.stages.find((s) => s.stage === 'train-bd3')!;
    expect(JSON.parse(readFileSync(join(out, 'stages', `train-bd3-${bd3.hash}`, 'run', 'train_config.json'), 'utf8')).init).toMatch(/train-ar-[0-9a-f]{16}\/run\/model$/);
  }, 600_000);

  it('runs every stage, reports the paper tables, skips everything on a rerun and reruns only what a change touches', async () => {
    const out = mkdtempSync(join(tmpdir(), 'repro-micro-'));
    const lines: string[] = [];
    const first = await runRepro({ config: micro(), out, log: (l) => lines.push(l) });
    const r = first.results;
    const names = r.stages.map((s) => s.stage);
    expect(names.slice(0, 10)).toEqual(['tokenizer', 'data', 'train-ar', 'train-bd3', 'fidelity-bd3', 'steering-bd3', 'replay-bd3', 'fidelity-ar', 'steering-ar', 'replay-ar']);
    // RQ2: per seed one SFT and one real-engine GRPO run, and one GRPO run per world model.
    for (const stage of ['policy-base', 'sft', 'eval-sft', 'grpo-real', 'eval-grpo-real'])
      expect(
        names.filter((n) => n === stage),
        stage,
      ).toHaveLength(3);
    expect(names.filter((n) => n === 'grpo-world-model')).toHaveLength(6);
    expect(r.stages.every((s) => !s.cached)).toBe(true);
    for (const s of r.stages) expect(existsSync(join(out, 'stages', `${s.stage}-${s.hash}`, 'result.json'))).toBe(true);
    // Same architecture, data and steps; only the objective differs.
    expect(r.train.bd3.parameters).toBe(r.train.ar.parameters);
    expect(r.train.bd3.steps).toBe(r.train.ar.steps);
    expect(r.train.bd3.trainExamples).toBe(r.train.ar.trainExamples);
    for (const obj of ['bd3', 'ar'] as const) {
      const f = r.fidelity[obj];
      expect(f.rows).toBe(4);
      expect(f.samples).toBe(2);
      for (const v of [f.exactMatch, f.rougeL, f.selfBleu3, f.distinct2]) expect(v).toBeGreaterThanOrEqual(0);
      expect(f.msPerTransition).toBeGreaterThan(0);
      expect(f.forwardsPerToken).toBeGreaterThan(0);
      expect(r.replay[obj].transitions).toBeGreaterThan(0);
      expect(r.replay[obj].msPerStep.simulated).toBeGreaterThan(0);
      expect(r.steering[obj].rows).toBeGreaterThan(0);
    }
    // One forward per token for AR; anchors are always kept by the diffusion sampler; AR honours
    // the opening one by prefix forcing: its answers start with the reference's opening tokens.
    expect(r.fidelity.ar.forwardsPerToken).toBe(1);
    expect(r.steering.bd3.anchored?.fieldsKept).toBe(1);
    expect(r.steering.bd3.prefixForced).toBeUndefined();
    expect(r.steering.ar.anchored).toBeUndefined();
    const forced = r.steering.ar.prefixForced!;
    expect(forced).toBeDefined();
    for (const v of [forced.fieldsKept, forced.rougeL, forced.freeSpanRougeL, forced.exact]) expect(v >= 0 && v <= 1).toBe(true);
    const tokStage = r.stages.find((s) => s.stage === 'tokenizer')!;
    const tok = Tokenizer.fromJson(JSON.parse(readFileSync(join(out, 'stages', `tokenizer-${tokStage.hash}`, 'tokenizer.json'), 'utf8')), 'repro tokenizer');
    expect(r.steering.ar.examples.length).toBeGreaterThan(0);
    for (const e of r.steering.ar.examples) {
      const opening = tok.decode(tok.encodeIds(e.reference, { addSpecialTokens: false }).slice(0, r.steering.ar.anchorTokens), { skipSpecialTokens: true });
      expect(e.prefixForced?.startsWith(opening), `${e.prefixForced} should open with ${opening}`).toBe(true);
    }
    expect(r.rq2.seeds).toEqual([0, 1, 2]);
    expect(r.rq2.policies.map((p) => p.policy)).toEqual(['base', 'sft', 'sft+rl(bd3 wm)', 'sft+rl(ar wm)', 'sft+rl(real)']);
    for (const p of r.rq2.policies) {
      expect(p.perSeed).toHaveLength(3);
      expect(p.episodes).toBe(3 * 2);
      expect(p.ci95Pooled[0]).toBeLessThanOrEqual(p.wins / p.episodes);
      expect(p.ci95Pooled[1]).toBeGreaterThanOrEqual(p.wins / p.episodes);
    }
    // The real-engine run is shared by both world models' pipelines of a seed, not trained twice.
    expect(lines.filter((l) => /^\[grpo-real\] cached/.test(l))).toHaveLength(3);

    const md = readFileSync(first.paths.markdown, 'utf8');
    for (let t = 1; t <= 6; t++) expect(md).toContain(`## Table ${t} —`);
    expect(md).toContain('| measure | BD3 anchored | BD3 free | AR prefix-forced | AR free |');
    expect(md).toMatch(/\| fields kept \/ written \| 100\.0% \| \d+\.\d% \| \d+\.\d% \| \d+\.\d% \|/);
    expect(md).toMatch(/\| MAUVE \| 0\.982 \| 0\.932 \| \d\.\d{3} \| \d\.\d{3} \|/);
    expect(md).toContain('fewer parameters');
    expect(md).toMatch(/\| ms per step: world model \/ real engine \| \d+\.\d \/ \d+\.\d{2} \| \d+\.\d \/ \d+\.\d{2} \|/);
    expect(md).toMatch(/\| sft\+rl\(bd3 wm\) \| n\/r \| \d+\.\d% \[/);
    const html = readFileSync(first.paths.html, 'utf8');
    expect(html).toContain('<h2>Table 6 — RQ2 success on held-out tasks (real engine)</h2>');
    expect(html).toContain('<figure class="chart"');
    expect(html).toContain('<th>AR prefix-forced</th>');
    expect(JSON.parse(readFileSync(first.paths.results, 'utf8')).rq2).toEqual(r.rq2);

    const second = await runRepro({ config: micro(), out });
    expect(second.results.stages.every((s) => s.cached)).toBe(true);
    expect(second.results.fidelity).toEqual(r.fidelity);
    expect(second.results.rq2).toEqual(r.rq2);
    expect(second.reportMarkdown).toContain('| grpo-real | ');
    expect(second.reportMarkdown).toMatch(/\| train-bd3 \| [0-9a-f]{16} \| cached \|/);

    // A replay setting is read by the replay stages only.
    const changed = micro();
    changed.replay.maxSteps = 1;
    const third = await runRepro({ config: changed, out });
    expect(third.results.stages.filter((s) => !s.cached).map((s) => s.stage)).toEqual(['replay-bd3', 'replay-ar']);
    expect(third.results.replay.bd3.transitions).toBe(1);
  }, 900_000);
});
