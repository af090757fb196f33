// The one episode record every command that plays episodes writes, one JSON object per line.
import type { ChatMessage, Split, TaskRef } from './types.js';

export interface EpisodeRecord {
  env: string;
  split: Split;
  task_id: string;
  task_type: string;
  seed: number;
  /** The conversation as the agent saw it (system, user observations, assistant completions). */
  messages: ChatMessage[];
  /** The parsed actions sent to the env, one per step. */
  actions: string[];
  steps: number;
  /** Sum of step rewards. */
  reward: number;
  /** The env's native score at the end (ALFWorld 0/1, ScienceWorld 0–100, AppWorld TGC). */
  score: number;
  won: boolean;
  /**
   * Set when the episode was cut short because the policy could not answer (a served model whose
   * context the conversation outgrew): why. Absent for episodes that ended by the env or the turn limit.
   */
  truncated?: string;
}

export function episodeRecord(task: TaskRef, result: { messages: ChatMessage[]; actions: string[]; reward: number; score: number; won: boolean; truncated?: string | undefined }): EpisodeRecord {
  const record: EpisodeRecord = {
    env: task.env,
    split: task.split,
    task_id: task.id,
    task_type: task.taskType,
    seed: task.seed,
    messages: result.messages,
    actions: result.actions,
    steps: result.actions.length,
    reward: result.reward,
    score: result.score,
    won: result.won,
  };
  if (result.truncated !== undefined) record.truncated = result.truncated;
  return record;
}

export type RecordCheck = { ok: true; value: EpisodeRecord } | { ok: false; issues: string[] };

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

/** Validates a parsed JSON value as an episode record; issues name the offending field. */
export function parseEpisodeRecord(value: unknown): RecordCheck {
  const issues: string[] = [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, issues: ['record: expected a JSON object'] };
  const r = value as Record<string, unknown>;
  const str = (k: string) => typeof r[k] === 'string' || issues.push(`${k}: expected a string`);
  const num = (k: string) => (typeof r[k] === 'number' && Number.isFinite(r[k])) || issues.push(`${k}: expected a finite number`);
  str('env');
  str('task_id');
  str('task_type');
  num('seed');
  num('steps');
  num('reward');
  num('score');
  if (typeof r.won !== 'boolean') issues.push('won: expected a boolean');
  if (r.truncated !== undefined && typeof r.truncated !== 'string') issues.push('truncated: expected a string (why the episode was cut short) when present');
  if (typeof r.split !== 'string' || r.split === '') issues.push(`split: expected a split name, got ${JSON.stringify(r.split)}`);
  if (!Array.isArray(r.actions) || r.actions.some((a) => typeof a !== 'string')) issues.push('actions: expected an array of strings');
  if (!Array.isArray(r.messages)) issues.push('messages: expected an array');
  else
    r.messages.forEach((m, i) => {
      const msg = m as Record<string, unknown> | null;
      if (typeof msg !== 'object' || msg === null) return issues.push(`messages[${i}]: expected an object`);
      if (!ROLES.has(msg.role as string)) issues.push(`messages[${i}].role: expected system|user|assistant|tool, got ${JSON.stringify(msg.role)}`);
      if (typeof msg.content !== 'string') issues.push(`messages[${i}].content: expected a string`);
    });
  if (issues.length === 0 && Array.isArray(r.actions) && r.steps !== r.actions.length) issues.push(`steps: ${String(r.steps)} does not match actions.length ${r.actions.length}`);
  return issues.length ? { ok: false, issues } : { ok: true, value: r as unknown as EpisodeRecord };
}

/** Summary of a set of episodes: success rate with a Wilson 95% interval, mean score and steps. */
export interface EpisodeSummary {
  episodes: number;
  wins: number;
  successRate: number;
  successCI95: [number, number];
  meanScore: number;
  meanSteps: number;
  /** Episodes cut short because the policy could not answer (EpisodeRecord.truncated); they count as not won. */
  truncated: number;
}

export function summarizeEpisodes(records: readonly EpisodeRecord[]): EpisodeSummary {
  const n = records.length;
  const wins = records.filter((r) => r.won).length;
  const mean = (f: (r: EpisodeRecord) => number) => (n === 0 ? 0 : records.reduce((s, r) => s + f(r), 0) / n);
  return {
    episodes: n,
    wins,
    successRate: n === 0 ? 0 : wins / n,
    successCI95: wilsonInterval(wins, n),
    meanScore: mean((r) => r.score),
    meanSteps: mean((r) => r.steps),
    truncated: records.filter((r) => r.truncated !== undefined).length,
  };
}

/** Wilson score interval at z = 1.96; well-behaved at 0% and 100%, unlike the normal approximation. */
export function wilsonInterval(successes: number, n: number, z = 1.959963984540054): [number, number] {
  if (n === 0) return [0, 1];
  const p = successes / n;
  const denom = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denom;
  // At 0 and n successes the bound is exactly 0 or 1; rounding would leave 1e-16 off.
  return [successes === 0 ? 0 : centre - half, successes === n ? 1 : centre + half];
}
