// The repro report: the paper's tables with our numbers beside the paper's, as Markdown and HTML
// from one list of tables. The paper's cells hold only what shared/reference records (the abstract's
// MAUVE figures and the directions it states); the rest is "n/r" (not recorded there), never guessed.
import { barChartCI, escapeXml } from '@diffworld/eval';
import type { ReproResults } from './repro.js';

interface Table {
  title: string;
  note?: string;
  header: string[];
  rows: string[][];
}

const f3 = (v: number | null | undefined) => (v === null || v === undefined || Number.isNaN(v) ? '—' : v.toFixed(3));
const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
const NR = 'n/r';

/** "agrees" when ours points the way the paper reports (MDLM better), judged by `better`. */
function verdict(bd3: number | null, ar: number | null, higherIsBetter: boolean): string {
  if (bd3 === null || ar === null || Number.isNaN(bd3) || Number.isNaN(ar)) return '—';
  if (bd3 === ar) return 'tie';
  return bd3 > ar === higherIsBetter ? 'agrees (BD3 better)' : 'disagrees (AR better)';
}

export function reproTables(r: ReproResults): Table[] {
  const { bd3, ar } = r.fidelity;
  const t: Table[] = [];
  t.push({
    title: 'Table 1 — RQ1 fidelity on held-out transitions',
    note: `${bd3.rows} held-out rows of ${r.data.heldoutSplit}, sample 0 at temperature ${r.config.fidelity.temperature}, ≤ ${r.config.fidelity.maxNewTokens} new tokens; MAUVE with the hashing featurizer (${r.config.fidelity.mauveDims} dims), not the paper's (unknown) featurizer. Paper AR column: Qwen3.5-35B-A3B for MAUVE.`,
    header: ['metric', 'paper MDLM (SDAR-8B)', 'paper AR', 'ours BD3', 'ours AR', 'vs paper'],
    rows: [
      ['exact match', NR, NR, f3(bd3.exactMatch), f3(ar.exactMatch), verdict(bd3.exactMatch, ar.exactMatch, true)],
      ['semantic match', NR, NR, f3(bd3.semanticMatch), f3(ar.semanticMatch), verdict(bd3.semanticMatch, ar.semanticMatch, true)],
      ['ROUGE-L F1', NR, NR, f3(bd3.rougeL), f3(ar.rougeL), verdict(bd3.rougeL, ar.rougeL, true)],
      ['BLEU-1 (corpus, 0–100)', NR, NR, f3(bd3.bleu1), f3(ar.bleu1), verdict(bd3.bleu1, ar.bleu1, true)],
      ['MAUVE', '0.982', '0.932', f3(bd3.mauve), f3(ar.mauve), verdict(bd3.mauve, ar.mauve, true)],
    ],
  });
  t.push({
    title: 'Table 2 — RQ1 diversity among K samples per prompt',
    note: `K = ${bd3.samples}; per prompt over its samples, mean over prompts. The paper reports only the direction: lower Self-BLEU and higher Distinct-N for the MDLM.`,
    header: ['metric', 'paper MDLM', 'paper AR', 'ours BD3', 'ours AR', 'vs paper'],
    rows: [
      ['Self-BLEU-3 (↓)', 'lower', 'higher', f3(bd3.selfBleu3), f3(ar.selfBleu3), verdict(bd3.selfBleu3, ar.selfBleu3, false)],
      ['Distinct-1 (↑)', 'higher', 'lower', f3(bd3.distinct1), f3(ar.distinct1), verdict(bd3.distinct1, ar.distinct1, true)],
      ['Distinct-2 (↑)', 'higher', 'lower', f3(bd3.distinct2), f3(ar.distinct2), verdict(bd3.distinct2, ar.distinct2, true)],
    ],
  });
  t.push({
    title: 'Table 3 — per-step cost',
    note: "Wall time per generated transition over all samples, on this run's provider; forwards per generated token from the samplers.",
    header: ['measure', 'ours BD3', 'ours AR'],
    rows: [
      ['ms per transition', bd3.msPerTransition.toFixed(1), ar.msPerTransition.toFixed(1)],
      ['forwards per token', f3(bd3.forwardsPerToken), f3(ar.forwardsPerToken)],
      ['tokens per second', f3(bd3.tokensPerSecond), f3(ar.tokensPerSecond)],
    ],
  });
  const sb = r.steering.bd3,
    sa = r.steering.ar;
  t.push({
    title: 'Table 4 — anchor steering (fixed status and closing fields)',
    note: `${sb.rows} held-out rows whose reference fits in ${r.config.steering.maxNewTokens} tokens; anchors: the reference's first and last ${sb.anchorTokens} tokens at their positions. Whole-answer ROUGE-L includes the anchored tokens; the free span (everything else) is the coherence measure. AR prefix-forced: the reference's opening field forced as the answer's first tokens (the one anchor left-to-right decoding can honour; it cannot see the closing one), so its "fields kept" is the share of rows that also write the closing field at its position.${sa.prefixForced ? '' : ` These results predate prefix forcing ("—")${sa.note ? `; AR: ${sa.note}` : ''}.`}`,
    header: ['measure', 'BD3 anchored', 'BD3 free', 'AR prefix-forced', 'AR free'],
    rows: [
      ['fields kept / written', sb.anchored ? pct(sb.anchored.fieldsKept) : '—', pct(sb.unanchored.fieldsKept), sa.prefixForced ? pct(sa.prefixForced.fieldsKept) : '—', pct(sa.unanchored.fieldsKept)],
      ['ROUGE-L F1 (whole answer)', f3(sb.anchored?.rougeL), f3(sb.unanchored.rougeL), f3(sa.prefixForced?.rougeL), f3(sa.unanchored.rougeL)],
      ['ROUGE-L F1 (free span)', f3(sb.anchored?.freeSpanRougeL), f3(sb.unanchored.freeSpanRougeL), f3(sa.prefixForced?.freeSpanRougeL), f3(sa.unanchored.freeSpanRougeL)],
      ['exact', f3(sb.anchored?.exact), f3(sb.unanchored.exact), f3(sa.prefixForced?.exact), f3(sa.unanchored.exact)],
    ],
  });
  t.push({
    title: 'Table 5 — replay consistency (world-model rollouts replayed in the real engine)',
    note: `Expert actions of ${r.replay.bd3.tasks} held-out tasks, ≤ ${r.config.replay.maxSteps} steps, world model fed its own predictions, no local responder, greedy with repetition penalty 1.3 (the paper's proxy).`,
    header: ['measure', 'BD3', 'AR'],
    rows: [
      ['simulated transitions', String(r.replay.bd3.transitions), String(r.replay.ar.transitions)],
      ['reproduced by the real engine', pct(r.replay.bd3.reproduced), pct(r.replay.ar.reproduced)],
      ['ROUGE-L F1 per transition', f3(r.replay.bd3.rougeL), f3(r.replay.ar.rougeL)],
      ['done agrees', pct(r.replay.bd3.doneAgreement), pct(r.replay.ar.doneAgreement)],
      ['ms per step: world model / real engine', ...[r.replay.bd3, r.replay.ar].map((x) => (x.msPerStep ? `${x.msPerStep.simulated.toFixed(1)} / ${x.msPerStep.real.toFixed(2)}` : '—'))],
    ],
  });
  t.push({
    title: 'Table 6 — RQ2 success on held-out tasks (real engine)',
    note: `Seeds ${r.rq2.seeds.join(', ')}; held-out split ${r.rq2.split}. Mean over seeds with a 95% t-interval, and pooled over all episodes with a Wilson 95% interval. GRPO in each world model and in the real engine from the same SFT weights, seed, task stream and step budget. Paper numbers: not recorded in shared/reference.`,
    header: ['policy', 'paper', 'mean over seeds [95% CI]', 'pooled [Wilson 95%]', 'per seed'],
    rows: r.rq2.policies.map((p) => [
      p.policy,
      NR,
      `${pct(p.mean)} [${pct(p.ci95Seeds[0])}, ${pct(p.ci95Seeds[1])}]`,
      `${p.wins}/${p.episodes} = ${pct(p.episodes ? p.wins / p.episodes : 0)} [${pct(p.ci95Pooled[0])}, ${pct(p.ci95Pooled[1])}]`,
      p.perSeed.map(pct).join(' · '),
    ]),
  });
  t.push({
    title: 'Stages',
    note: 'Which machine (and DIFFWORLD_SESSION label) finished each stage, and when: a run assembled over several sessions says here which produced what.',
    header: ['stage', 'hash', 'this invocation', 'seconds (when run)', 'finished by', 'finished at'],
    rows: r.stages.map((s) => [s.stage, s.hash, s.cached ? 'cached' : 'ran', s.seconds.toFixed(1), `${s.host ?? '—'}${s.session ? ` (${s.session})` : ''}`, s.finishedAt ?? '—']),
  });
  return t;
}

function scale(r: ReproResults): string {
  const m = r.train.bd3;
  return [
    `Scale: the paper trains 8B-parameter world models (SDAR-8B block diffusion; AR baselines of 8B and more) on its full corpus on 8 GPUs.`,
    `Here both world models are ${m.architecture} (≈ ${(m.parameters / 1e6).toFixed(2)} M parameters, vocabulary ${r.vocabSize ?? (r.data as { vocabSize?: number }).vocabSize}), trained for ${m.steps} steps on ${r.data.trainRows} rows`,
    `(${r.train.bd3.provider}; final loss BD3 ${r.train.bd3.finalLoss.toFixed(3)}, AR ${r.train.ar.finalLoss.toFixed(3)}) — about ${Math.round(8e9 / m.parameters).toLocaleString('en-US')}× fewer parameters, so the numbers test the pipeline and the direction of effects, not the paper's magnitudes.`,
  ].join(' ');
}

export function renderReproMarkdown(r: ReproResults): string {
  const md: string[] = [`# DiffWorld repro: ${r.env} — BD3 (masked diffusion) vs AR world models, and agents trained in them`, '', scale(r), ''];
  for (const t of reproTables(r)) {
    md.push(`## ${t.title}`, '');
    if (t.note) md.push(t.note, '');
    md.push(`| ${t.header.join(' | ')} |`, `|${t.header.map(() => '---').join('|')}|`, ...t.rows.map((row) => `| ${row.join(' | ')} |`), '');
  }
  return md.join('\n');
}

export async function renderReproHtml(r: ReproResults): Promise<string> {
  const tables = reproTables(r)
    .map(
      (t) =>
        `<h2>${escapeXml(t.title)}</h2>${t.note ? `<p>${escapeXml(t.note)}</p>` : ''}<table><thead><tr>${t.header.map((h) => `<th>${escapeXml(h)}</th>`).join('')}</tr></thead><tbody>${t.rows.map((row) => `<tr>${row.map((c) => `<td>${escapeXml(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`,
    )
    .join('\n');
  const chart = await barChartCI(
    'RQ2: pooled success on held-out tasks (whiskers: Wilson 95% interval)',
    r.rq2.policies.map((p) => ({ label: p.policy, value: p.episodes ? p.wins / p.episodes : 0, ci: p.ci95Pooled, note: `${p.wins}/${p.episodes}` })),
    { xTitle: 'policy' },
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>DiffWorld repro: ${escapeXml(r.env)}</title><style>body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto}table{border-collapse:collapse;margin-bottom:1em}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}</style></head><body><h1>DiffWorld repro: ${escapeXml(r.env)}</h1><p>${escapeXml(scale(r))}</p>${tables}<h2>RQ2 chart</h2>${chart}</body></html>\n`;
}
