// The pipeline's final report: each policy's success on the held-out real-engine split, overall and
// per task type, with Wilson 95% intervals (eval's summaries), the RL gains and the sim-to-real gap,
// as Markdown and as one self-contained HTML page (eval's SVG charts; the training curves appended).
import { type EpisodeSummary, type PairedDifference, pairedDifference } from '@diffworld/env-core';
import { type AgentEvaluation, type AgentSummary, type MetricsRun, SeriesColors, barChartCI, escapeXml, metricCharts } from '@diffworld/eval';
import type { ExperimentConfig } from '../config/schema.js';

export interface PipelineReport {
  env: string;
  split: string;
  episodes: number;
  /** In report order: base, SFT, SFT + RL in the world model, SFT + RL in the real engine. */
  policies: { name: string; summary: AgentSummary }[];
  taskTypes: string[];
  /** success(SFT+RL real) − success(SFT+RL world model), paired on the same held-out real games (both arms ran). */
  simToRealGap?: PairedDifference;
  /** success(policy) − success(SFT) paired game by game, for each RL policy that ran. */
  rlGain: { worldModel?: PairedDifference; real?: PairedDifference };
  timings: Record<string, number>;
  grpo: { steps: number; groupSize: number; tasksPerStep: number; beta: number; temperature: number };
  /** How much signal each GRPO run had: steps whose groups all had equal rewards changed no weight. */
  grpoRuns: { name: string; steps: number; skippedSteps: number; zeroStdShare: number; worldModelShare?: number }[];
  /** The world model the world-model arm trained in: its held-out loss, where this run trained it. */
  worldModel: { source: string; objective?: string; evalLoss?: number | null; finalLoss?: number; parameters?: number } | undefined;
  /** Comparisons that carry no information, each said in one sentence. */
  warnings: string[];
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** Fewer held-out episodes than this per policy make a success comparison too wide to read. */
export const MIN_EPISODES = 30;

/** Below this share of transitions answered by the world model, the world-model arm is mostly the env's responder. */
export const MIN_WORLD_MODEL_SHARE = 0.5;

export interface PipelineFacts {
  timings: Record<string, number>;
  grpoRuns: PipelineReport['grpoRuns'];
  worldModel: PipelineReport['worldModel'];
}

/** The comparisons of a run that carry no information (the report's warnings). */
export function uninformative(r: Pick<PipelineReport, 'policies' | 'episodes' | 'grpoRuns'>): string[] {
  const out: string[] = [];
  for (const g of r.grpoRuns) {
    if (g.steps > 0 && g.skippedSteps === g.steps)
      out.push(
        `${g.name}: every one of its ${g.steps} steps had equal rewards in every group (zero variance), so no step changed the weights; its policy is the SFT policy and its gain over SFT measures nothing.`,
      );
    else if (g.steps > 0 && g.skippedSteps > g.steps / 2) out.push(`${g.name}: ${g.skippedSteps} of ${g.steps} steps had no group with reward variance and changed no weight.`);
    if (g.worldModelShare !== undefined && g.worldModelShare < MIN_WORLD_MODEL_SHARE)
      out.push(
        `${g.name}: the world model answered only ${pct(g.worldModelShare)} of its transitions (the env's local responder the rest), so this arm is close to training in the real engine (worldModel.useResponder false hands every transition to the world model).`,
      );
  }
  if (r.policies.length > 0 && r.policies.every((p) => p.summary.overall.wins === 0))
    out.push(`No policy solved any of the ${r.episodes} held-out games: every success is 0, so the policies cannot be told apart.`);
  if (r.episodes < MIN_EPISODES) out.push(`Only ${r.episodes} held-out episodes per policy (fewer than ${MIN_EPISODES}): the 95% intervals are wide, and differences inside them are not measured.`);
  return out;
}

export function pipelineSummary(c: ExperimentConfig, evals: Readonly<Record<string, AgentEvaluation>>, facts: PipelineFacts): PipelineReport {
  const policies = Object.entries(evals).map(([name, e]) => ({ name, summary: e.summary }));
  const types: string[] = [];
  for (const p of policies) for (const t of Object.keys(p.summary.byTaskType)) if (!types.includes(t)) types.push(t);
  // B − A on the games both played; absent when either policy did not run.
  const gain = (b: string, a: string) => (evals[a] && evals[b] ? pairedDifference(evals[a].records, evals[b].records) : undefined);
  const first = policies[0]!.summary;
  return {
    env: c.env,
    split: first.split,
    episodes: first.overall.episodes,
    policies,
    taskTypes: types,
    ...optional('simToRealGap', gain('sft+rl(real)', 'sft+rl(world model)')),
    rlGain: { ...optional('worldModel', gain('sft+rl(world model)', 'sft')), ...optional('real', gain('sft+rl(real)', 'sft')) },
    timings: facts.timings,
    grpo: { steps: c.grpo.steps, groupSize: c.grpo.groupSize, tasksPerStep: c.grpo.tasksPerStep, beta: c.grpo.beta, temperature: c.grpo.temperature },
    grpoRuns: facts.grpoRuns,
    worldModel: facts.worldModel,
    warnings: uninformative({ policies, episodes: first.overall.episodes, grpoRuns: facts.grpoRuns }),
  };
}

const optional = <K extends string, V>(k: K, v: V | undefined) => (v === undefined ? {} : ({ [k]: v } as Record<K, V>));

const cell = (s: EpisodeSummary | undefined) => (s ? `${pct(s.successRate)} [${pct(s.successCI95[0])}, ${pct(s.successCI95[1])}] (${s.wins}/${s.episodes})` : '–');
const points = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}`;
/** `+7.1 pts [+2.0, +12.3] (12 won / 2 lost of 140 paired)`, or `not run`. */
const signed = (d: PairedDifference | undefined) =>
  d ? `${points(d.difference)} pts [${points(d.ci95[0])}, ${points(d.ci95[1])}] (${d.onlyB} won / ${d.onlyA} lost of ${d.pairs} paired)` : 'not run';

function rows(r: PipelineReport): [string, (p: PipelineReport['policies'][number]) => EpisodeSummary | undefined][] {
  return [['all', (p) => p.summary.overall], ...r.taskTypes.map((t): [string, (p: PipelineReport['policies'][number]) => EpisodeSummary | undefined] => [t, (p) => p.summary.byTaskType[t]])];
}

/**
 * The run in one line, the CLI's last: where the report is and each policy's held-out success,
 * e.g. `grpo alfworld: eval_in_distribution, 16 games — base 0/16 0.0% [0.0, 19.4] · sft … ·
 * RL gain over SFT: real +6.3 pts [-1.2, 14.0] — report tmp/grpo-alfworld/report.md`.
 */
export function pipelineSummaryLine(r: PipelineReport, reportPath: string): string {
  const ci = (s: EpisodeSummary) => `${s.wins}/${s.episodes} ${pct(s.successRate)} [${(s.successCI95[0] * 100).toFixed(1)}, ${(s.successCI95[1] * 100).toFixed(1)}]`;
  const policies = r.policies.map((p) => `${p.name} ${ci(p.summary.overall)}`).join(' · ');
  const gains = (['worldModel', 'real'] as const).flatMap((k) => {
    const d = r.rlGain[k];
    return d ? [`${k === 'real' ? 'real' : 'world model'} ${points(d.difference)} pts [${points(d.ci95[0])}, ${points(d.ci95[1])}]`] : [];
  });
  return `grpo ${r.env}: ${r.split}, ${r.episodes} games — ${policies}${gains.length ? ` · RL gain over SFT: ${gains.join(', ')}` : ''} — report ${reportPath}`;
}

export function renderPipelineMarkdown(r: PipelineReport): string {
  const head = `| task type | ${r.policies.map((p) => p.name).join(' | ')} |`;
  const lines = [
    `# DiffWorld GRPO pipeline: ${r.env}`,
    '',
    `Held-out split **${r.split}**, ${r.episodes} real-engine episodes per policy. ${grpoLine(r)}`,
    '',
    ...(r.warnings.length ? ['## What this run cannot tell', '', ...r.warnings.map((w) => `- **${w}**`), ''] : []),
    '## Success (95% Wilson interval, wins/episodes)',
    '',
    head,
    `|---|${r.policies.map(() => '---').join('|')}|`,
    ...rows(r).map(([name, get]) => `| ${name} | ${r.policies.map((p) => cell(get(p))).join(' | ')} |`),
    '',
    `- RL gain over SFT (paired on the same games, Newcombe 95% interval; won / lost: games only the RL policy won / only SFT won): world model ${signed(r.rlGain.worldModel)}, real engine ${signed(r.rlGain.real)}`,
    `- Sim-to-real gap (RL in the real engine − RL in the world model, both measured in the real engine): ${signed(r.simToRealGap)}`,
    '',
    '## GRPO signal and the world model',
    '',
    '| GRPO run | steps | steps without reward variance (no update) | groups with zero variance | transitions answered by the world model |',
    '|---|---|---|---|---|',
    ...r.grpoRuns.map((g) => `| ${g.name} | ${g.steps} | ${g.skippedSteps} | ${pct(g.zeroStdShare)} | ${g.worldModelShare === undefined ? '–' : pct(g.worldModelShare)} |`),
    '',
    worldModelLine(r),
    '',
    '## Stage timings',
    '',
    '| stage | seconds |',
    '|---|---|',
    ...Object.entries(r.timings).map(([k, v]) => `| ${k} | ${v.toFixed(1)} |`),
    '',
  ];
  return lines.join('\n');
}

/** The GRPO budget, or that no GRPO arm ran (grpo.arms []). */
function grpoLine(r: PipelineReport): string {
  if (r.grpoRuns.length === 0) return 'GRPO: not run (grpo.arms is empty).';
  return `GRPO: ${r.grpo.steps} steps × ${r.grpo.tasksPerStep} tasks × group ${r.grpo.groupSize}, β ${r.grpo.beta}, T ${r.grpo.temperature}.`;
}

function worldModelLine(r: PipelineReport): string {
  const w = r.worldModel;
  if (!w) return 'World model: none.';
  const loss = w.evalLoss !== undefined && w.evalLoss !== null ? `, held-out loss ${w.evalLoss.toFixed(3)}` : '';
  const train = w.finalLoss !== undefined ? `, final training loss ${w.finalLoss.toFixed(3)}` : '';
  const size = w.parameters !== undefined ? ` (${(w.parameters / 1e6).toFixed(2)} M parameters)` : '';
  return `World model: ${w.source}${w.objective ? `, ${w.objective}` : ''}${size}${train}${loss}.`;
}

const CSS = `body{font-family:system-ui,sans-serif;margin:24px auto;max-width:1000px;color:#222;padding:0 16px}
table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ddd;padding:4px 8px;text-align:right}td:first-child,th:first-child{text-align:left}
h2{font-size:17px;border-bottom:1px solid #ddd}.charts{display:flex;flex-wrap:wrap;gap:12px}figure.chart{margin:8px 0}`;

/** The comparison page, with the training curves of `curves` (one chart per metric, a stage's colour the same in each). */
export async function renderComparisonHtml(r: PipelineReport, curves: readonly MetricsRun[]): Promise<string> {
  const colors = new SeriesColors();
  const table = [
    `<table id="success"><tr><th>task type</th>${r.policies.map((p) => `<th>${escapeXml(p.name)}</th>`).join('')}</tr>`,
    ...rows(r).map(([name, get]) => `<tr><td>${escapeXml(name)}</td>${r.policies.map((p) => `<td>${escapeXml(cell(get(p)))}</td>`).join('')}</tr>`),
    '</table>',
  ].join('\n');
  const chart = await barChartCI(
    'Success on held-out real games (whiskers: Wilson 95% interval)',
    r.policies.map((p) => ({ label: p.name, value: p.summary.overall.successRate, ci: p.summary.overall.successCI95, note: `${p.summary.overall.wins}/${p.summary.overall.episodes}` })),
    { xTitle: 'policy', colors },
  );
  const curveCharts = curves.length > 0 ? `<h2>Training curves</h2><div class="charts">${(await metricCharts(curves, colors)).join('\n')}</div>` : '';
  const timings = `<table id="timings"><tr><th>stage</th><th>seconds</th></tr>${Object.entries(r.timings)
    .map(([k, v]) => `<tr><td>${escapeXml(k)}</td><td>${v.toFixed(1)}</td></tr>`)
    .join('')}</table>`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>DiffWorld GRPO pipeline: ${escapeXml(r.env)}</title><style>${CSS}</style></head><body>
<h1>DiffWorld GRPO pipeline: ${escapeXml(r.env)}</h1>
<p>Held-out split <b>${escapeXml(r.split)}</b>, ${r.episodes} real-engine episodes per policy · ${escapeXml(grpoLine(r))}</p>
${r.warnings.length ? `<h2>What this run cannot tell</h2><ul id="warnings">${r.warnings.map((w) => `<li><b>${escapeXml(w)}</b></li>`).join('')}</ul>` : ''}
<h2>Success</h2>
${table}
${chart}
<p>RL gain over SFT (paired, Newcombe 95% interval): world model ${escapeXml(signed(r.rlGain.worldModel))}, real engine ${escapeXml(signed(r.rlGain.real))}. Sim-to-real gap (real − world model, both measured in the real engine): <b>${escapeXml(signed(r.simToRealGap))}</b>.</p>
<p>${escapeXml(worldModelLine(r))}</p>
<h2>Stage timings</h2>
${timings}
${curveCharts}
</body></html>
`;
}
