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

/** A paired comparison of two policies on the same tasks: success(B) − success(A) with its 95% interval. */
export interface PairedDifference {
  /** Tasks both policies played (paired by task id and seed). */
  pairs: number;
  /** success(B) − success(A) over the pairs. */
  difference: number;
  /** Newcombe's score interval for a paired difference (method 10, Stat. Med. 1998;17:2635). */
  ci95: [number, number];
  /** Discordant pairs: B won where A lost, and A won where B lost (what the difference is made of). */
  onlyB: number;
  onlyA: number;
}

/**
 * success(b) − success(a) on the tasks both played, with Newcombe's interval: it combines the two
 * Wilson intervals with the correlation of the pairs, so it stays inside [−1, 1] and is not
 * degenerate at 0% or 100% as the Wald interval is — an RL gain over SFT on the same held-out games
 * needs the pairing, or the interval is far wider than the data say.
 */
export function pairedDifference(
  a: readonly Pick<EpisodeRecord, 'task_id' | 'seed' | 'won'>[],
  b: readonly Pick<EpisodeRecord, 'task_id' | 'seed' | 'won'>[],
  z = 1.959963984540054,
): PairedDifference {
  const key = (r: Pick<EpisodeRecord, 'task_id' | 'seed'>) => `${r.task_id}\u0000${r.seed}`;
  const won = new Map(a.map((r) => [key(r), r.won]));
  let both = 0;
  let onlyB = 0;
  let onlyA = 0;
  let neither = 0;
  for (const r of b) {
    const aw = won.get(key(r));
    if (aw === undefined) continue;
    if (aw && r.won) both++;
    else if (r.won) onlyB++;
    else if (aw) onlyA++;
    else neither++;
  }
  const n = both + onlyB + onlyA + neither;
  if (n === 0) return { pairs: 0, difference: 0, ci95: [-1, 1], onlyB: 0, onlyA: 0 };
  const pB = (both + onlyB) / n;
  const pA = (both + onlyA) / n;
  const [lB, uB] = wilsonInterval(both + onlyB, n, z);
  const [lA, uA] = wilsonInterval(both + onlyA, n, z);
  // The phi coefficient of the 2×2 table; 0 when a margin is empty (the product under the root is 0).
  const margins = (both + onlyB) * (onlyA + neither) * (both + onlyA) * (onlyB + neither);
  const phi = margins === 0 ? 0 : (both * neither - onlyB * onlyA) / Math.sqrt(margins);
  const d = pB - pA;
  const lower = d - Math.sqrt(Math.max(0, (pB - lB) ** 2 - 2 * phi * (pB - lB) * (uA - pA) + (uA - pA) ** 2));
  const upper = d + Math.sqrt(Math.max(0, (uB - pB) ** 2 - 2 * phi * (uB - pB) * (pA - lA) + (pA - lA) ** 2));
  return { pairs: n, difference: d, ci95: [Math.max(-1, lower), Math.min(1, upper)], onlyB, onlyA };
}
