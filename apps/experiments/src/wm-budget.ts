// World-model prompts held to a token budget, the same way for training rows and for the requests
// the world model answers during GRPO, so that it is never asked about a prompt longer than (or
// shaped differently from) what it was trained on, and its training graph stays within memory.
//
// A world-model prompt is [system: grounding, user: `State: <history>\n\nAction: <action>`]. When
// it is over budget, two parts give way, in this order:
//   1. the grounding's `Database records:` block (AppWorld: up to 40 records per section, ~8k
//      tokens) keeps fewer records per section, as the env itself writes it ("N total, M shown"),
//      always keeping the records the action names by id; it may take at most half the room left
//      after the parts that never shrink;
//   2. the history is cut in the middle as the paper's corpus curation does — the agent's system
//      prompt and first user turn stay, a `[TRUNCATED k earlier turns]` marker replaces the middle,
//      then the last N turns: N ~ U(0, N_max) for training rows (seeded by the row's content), N_max
//      for requests (the most context that fits).
// A row whose fixed parts (target, action, head of the history, grounding without records) do not
// fit is dropped (SDAR's `truncate_mode: drop`), and counted.
import { type ActionEncoding, type ChatMessage, type ChatRow, Rng, contentHash, encodeAction, parseWorldModelUserTurn, truncationMarker, worldModelUserTurn } from '@diffworld/dataset';
import type { SampleOptions, WorldModel, WorldModelRequest, WorldModelResponse } from '@diffworld/env-core';

/** Tokens the chat template adds around a row's three messages. */
export const TEMPLATE_TOKENS = 32;

export type CountTokens = (text: string) => number;

const RECORDS_START = 'Database records:';
const SECTION = /^ {2}(\w+) \((\d+) total(?:, \d+ shown)?\):$/;
const RECORD = /^ {4}- (.*)$/;
/** The agent's system prompt and its first user turn (the task) always stay in the history. */
const HEAD = 2;

interface RecordSection {
  name: string;
  total: number;
  lines: string[];
}

interface RecordBlock {
  before: string[];
  sections: RecordSection[];
  after: string[];
}

function parseRecordBlock(system: string): RecordBlock | undefined {
  const lines = system.split('\n');
  const start = lines.indexOf(RECORDS_START);
  if (start < 0) return undefined;
  const sections: RecordSection[] = [];
  let i = start + 1;
  for (; i < lines.length; i++) {
    const head = SECTION.exec(lines[i]!);
    if (head) {
      sections.push({ name: head[1]!, total: Number(head[2]), lines: [] });
      continue;
    }
    if (RECORD.test(lines[i]!) && sections.length > 0) {
      sections[sections.length - 1]!.lines.push(lines[i]!);
      continue;
    }
    break;
  }
  return { before: lines.slice(0, start + 1), sections, after: lines.slice(i) };
}

/** Whether `action` names this record by its leading `<key>_id: <value>` (e.g. `song_id: 379`). */
function citedBy(action: string): (line: string) => boolean {
  return (line) => {
    const m = /^ {4}- (\w+_id): ([^,]+)/.exec(line);
    if (!m) return false;
    const value = m[2]!
      .trim()
      .replace(/^'(.*)'$/, '$1')
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(`\\b${m[1]}\\W{1,6}${value}\\b`).test(action);
  };
}

function renderBlock(b: RecordBlock, perSection: number, keep: (line: string) => boolean): string {
  const out = [...b.before];
  for (const s of b.sections) {
    let others = 0;
    const shown = s.lines.filter((l) => keep(l) || others++ < perSection);
    out.push(`  ${s.name} (${s.total} total${shown.length < s.total ? `, ${shown.length} shown` : ''}):`, ...shown);
  }
  return [...out, ...b.after].join('\n');
}

/**
 * The grounding prompt with at most `perSection` records per section besides the ones the action
 * cites (unchanged when it has no records block).
 */
export function limitRecords(system: string, perSection: number, action: string): string {
  const block = parseRecordBlock(system);
  return block ? renderBlock(block, perSection, citedBy(action)) : system;
}

/** The grounding with as many records per section as fit `budget` tokens (at least the cited ones). */
function fitRecords(system: string, budget: number, action: string, count: CountTokens): string {
  if (count(system) <= budget) return system;
  const block = parseRecordBlock(system);
  if (!block) return system;
  const keep = citedBy(action);
  let lo = 0;
  let hi = Math.max(0, ...block.sections.map((s) => s.lines.length));
  // Largest perSection whose prompt fits; the cost grows with perSection.
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (count(renderBlock(block, mid, keep)) <= budget) lo = mid;
    else hi = mid - 1;
  }
  return renderBlock(block, lo, keep);
}

/** The history's head, a truncation marker (when turns are dropped) and its last `keep` turns. */
function cutHistory(history: readonly ChatMessage[], keep: number): ChatMessage[] {
  const middle = history.length - HEAD;
  if (middle <= 0 || keep >= middle) return [...history];
  return [...history.slice(0, HEAD), { role: 'user', content: truncationMarker(middle - keep) }, ...history.slice(history.length - keep)];
}

export interface PromptParts {
  system: string;
  history: ChatMessage[];
  /** The action as written after "Action: " (already encoded). */
  action: string;
}

export interface PromptBudget {
  /** Tokens for the system and user turns together. */
  maxTokens: number;
  count: CountTokens;
  /** Turns kept from the end of the history, given the most that fit (default: all of them). */
  pickTurns?: (maxTurns: number) => number;
}

const promptTokens = (p: PromptParts, count: CountTokens) => count(p.system) + count(worldModelUserTurn(p.history, p.action));

/** The prompt within `maxTokens`, or undefined when even its fixed parts do not fit. */
export function fitPrompt(p: PromptParts, b: PromptBudget): PromptParts | undefined {
  if (promptTokens(p, b.count) <= b.maxTokens) return p;
  const head = cutHistory(p.history, 0);
  const bareSystem = limitRecords(p.system, 0, p.action);
  const fixed = b.count(bareSystem) + b.count(worldModelUserTurn(head, p.action));
  const room = b.maxTokens - fixed;
  if (room < 0) return undefined;
  const system = fitRecords(p.system, b.count(bareSystem) + Math.floor(room / 2), p.action, b.count);
  // The most last turns that fit next to this grounding; each extra turn costs at least one token,
  // so the search is bounded by the turns there are.
  const fits = (k: number) => b.count(system) + b.count(worldModelUserTurn(cutHistory(p.history, k), p.action)) <= b.maxTokens;
  let lo = 0;
  let hi = Math.max(0, p.history.length - HEAD);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  const keep = b.pickTurns ? Math.min(lo, Math.max(0, b.pickTurns(lo))) : lo;
  const out = { system, history: cutHistory(p.history, keep), action: p.action };
  return promptTokens(out, b.count) <= b.maxTokens ? out : undefined;
}

export interface RowFit {
  /** The row within budget, or undefined when it was dropped. */
  row: ChatRow | undefined;
  /** 'fits' (unchanged), 'shortened' or 'dropped'. */
  outcome: 'fits' | 'shortened' | 'dropped';
}

/**
 * A world-model training row within `maxTokens` (template tokens included). Rows that are not
 * world-model rows (three messages, a `State: [...]` user turn) are kept when they fit, else dropped.
 */
export function fitWorldModelRow(row: ChatRow, o: { maxTokens: number; count: CountTokens; seed: number }): RowFit {
  const total = (r: ChatRow) => TEMPLATE_TOKENS + r.messages.reduce((a, m) => a + o.count(m.content), 0);
  if (total(row) <= o.maxTokens) return { row, outcome: 'fits' };
  const [s, u, a] = row.messages;
  const parsed = row.messages.length === 3 && s?.role === 'system' && u?.role === 'user' && a?.role === 'assistant' ? parseWorldModelUserTurn(u.content) : undefined;
  if (!parsed || typeof parsed.history === 'string') return { row: undefined, outcome: 'dropped' };
  // N ~ U(0, N_max), seeded by the row's content so the corpus does not depend on row order.
  const rng = Rng.forKey(o.seed, contentHash(row));
  const fit = fitPrompt(
    { system: s!.content, history: parsed.history, action: parsed.action },
    { maxTokens: o.maxTokens - TEMPLATE_TOKENS - o.count(a!.content), count: o.count, pickTurns: (n) => rng.int(0, n) },
  );
  if (!fit) return { row: undefined, outcome: 'dropped' };
  return { row: { ...row, messages: [{ role: 'system', content: fit.system }, { role: 'user', content: worldModelUserTurn(fit.history, fit.action) }, a!] }, outcome: 'shortened' };
}

/**
 * A world model that sees every request shaped as its training rows: within `maxPromptTokens`
 * (the training row budget less the answer's tokens), records and history cut the same way. A
 * request whose fixed parts do not fit goes through unchanged (the model's own prompt limit then
 * answers it, as the reference's SKIPPED_OVERLONG does).
 */
export class BudgetedWorldModel implements WorldModel {
  constructor(
    private readonly inner: WorldModel,
    private readonly o: { maxPromptTokens: number; count: CountTokens; actionEncoding: ActionEncoding },
  ) {}

  fit(req: WorldModelRequest): WorldModelRequest {
    const action = encodeAction(req.action, this.o.actionEncoding);
    const fit = fitPrompt({ system: req.system, history: req.history, action }, { maxTokens: this.o.maxPromptTokens, count: this.o.count });
    return fit ? { system: fit.system, history: fit.history, action: req.action } : req;
  }

  predict(req: WorldModelRequest, opts?: SampleOptions): Promise<WorldModelResponse> {
    return this.inner.predict(this.fit(req), opts);
  }

  async close(): Promise<void> {
    await this.inner.close?.();
  }

  async predictBatch(reqs: WorldModelRequest[], opts?: SampleOptions): Promise<WorldModelResponse[]> {
    const fitted = reqs.map((r) => this.fit(r));
    if (this.inner.predictBatch) return this.inner.predictBatch(fitted, opts);
    return Promise.all(fitted.map((r) => this.inner.predict(r, opts)));
  }
}
