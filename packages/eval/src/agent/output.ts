// An evaluation on disk: DIR/episodes.jsonl (env-core episode records, one per line, in task
// order), DIR/summary.json, DIR/report.html and DIR/report.md.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EvalError } from '../errors.js';
import type { MetricsRun } from '../report/metrics.js';
import { renderHtmlReport, renderMarkdownReport } from '../report/report.js';
import type { AgentEvaluation } from './runner.js';

export const OUTPUT_FILES = { episodes: 'episodes.jsonl', summary: 'summary.json', html: 'report.html', markdown: 'report.md' } as const;

export async function writeAgentEvaluation(dir: string, evaluation: AgentEvaluation, metrics: readonly MetricsRun[] = []): Promise<Record<keyof typeof OUTPUT_FILES, string>> {
  const paths = Object.fromEntries(Object.entries(OUTPUT_FILES).map(([k, f]) => [k, join(dir, f)])) as Record<keyof typeof OUTPUT_FILES, string>;
  const input = { agent: evaluation, metrics };
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(paths.episodes, evaluation.records.map((r) => JSON.stringify(r) + '\n').join(''));
    await writeFile(paths.summary, JSON.stringify(evaluation.summary, null, 2) + '\n');
    await writeFile(paths.html, await renderHtmlReport(input));
    await writeFile(paths.markdown, renderMarkdownReport(input));
  } catch (e) {
    throw new EvalError('io', `cannot write the evaluation: ${(e as Error).message}`, dir);
  }
  return paths;
}
