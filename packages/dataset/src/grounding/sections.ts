// The grounded world-model system prompt: the section layout the upstream WM was trained on
// (shared/reference/upstream-paper-repo.md §1.4). Sections appear in this order, each as its
// header line and body, separated by one blank line, and the prompt ends with the target line.
import type { Result } from '../errors.js';

/** Section keys in prompt order, with their literal header lines. */
export const SECTIONS = [
  ['environmentState', '## ENVIRONMENT STATE'], // e0: initial / current environment state
  ['taskContext', '## TASK CONTEXT'], // what to predict, the active action
  ['toolSchemas', '## TOOL SCHEMAS'], // T: tool signatures (AppWorld-style envs)
  ['domainRules', '## DOMAIN RULES'], // R: verb / tool semantics, response templates
  ['computedQueryState', '## COMPUTED QUERY STATE'], // pre-computed filter / pagination result
  ['steeringDirectives', '## STEERING DIRECTIVES'], // D: formatting and grounding constraints
] as const;

export type SectionKey = (typeof SECTIONS)[number][0];
export const PREDICTION_TARGET_PREFIX = 'PREDICTION TARGET: ';

/** The five grounded components (+ the optional computed query state) and the target sentence. */
export type Grounding = { [K in SectionKey]?: string } & { predictionTarget?: string };

/**
 * Builds the system prompt. Absent sections are left out; bodies are written as given.
 *
 * @example
 * buildGroundingPrompt({ environmentState: 'You are in a kitchen.', predictionTarget: 'The observation.' })
 * // '## ENVIRONMENT STATE\nYou are in a kitchen.\n\nPREDICTION TARGET: The observation.'
 */
export function buildGroundingPrompt(g: Grounding): string {
  const blocks: string[] = [];
  for (const [key, header] of SECTIONS) {
    const body = g[key];
    if (body === undefined) continue;
    blocks.push(body === '' ? header : `${header}\n${body}`);
  }
  if (g.predictionTarget !== undefined) blocks.push(PREDICTION_TARGET_PREFIX + g.predictionTarget);
  return blocks.join('\n\n');
}

export interface GroundingIssue {
  /** 1-based line of the prompt where the problem is. */
  line: number;
  message: string;
}

const HEADER_KEY = new Map<string, SectionKey>(SECTIONS.map(([k, h]) => [h, k]));
const ORDER = new Map<SectionKey, number>(SECTIONS.map(([k], i) => [k, i]));

/**
 * Parses a grounded system prompt back into its sections. Only the six known header lines split
 * sections (other `##` lines are body text). Sections out of order, repeated, text before the
 * first header or after the target line are reported with their line numbers.
 * For prompts that buildGroundingPrompt wrote, build(parse(p)) === p.
 */
export function parseGroundingPrompt(text: string): Result<Grounding, GroundingIssue> {
  const issues: GroundingIssue[] = [];
  const lines = text.split('\n');
  const marks: { line: number; key: SectionKey | 'predictionTarget' }[] = [];
  lines.forEach((l, i) => {
    const key = HEADER_KEY.get(l.trimEnd());
    if (key) marks.push({ line: i, key });
    else if (l.startsWith(PREDICTION_TARGET_PREFIX)) marks.push({ line: i, key: 'predictionTarget' });
  });
  if (marks.length === 0) return { ok: false, issues: [{ line: 1, message: 'no grounding section headers found (expected "## ENVIRONMENT STATE" …)' }] };
  if (lines.slice(0, marks[0]!.line).some((l) => l.trim() !== '')) {
    issues.push({ line: 1, message: `text before the first section header "${lines[marks[0]!.line]}"` });
  }
  const g: Grounding = {};
  let lastOrder = -1;
  marks.forEach((m, i) => {
    const next = marks[i + 1]?.line ?? lines.length;
    if (m.key === 'predictionTarget') {
      if (i !== marks.length - 1) issues.push({ line: m.line + 1, message: 'PREDICTION TARGET must be the last part of the prompt' });
      if (g.predictionTarget !== undefined) issues.push({ line: m.line + 1, message: 'PREDICTION TARGET appears twice' });
      g.predictionTarget = lines.slice(m.line, next).join('\n').slice(PREDICTION_TARGET_PREFIX.length);
      return;
    }
    const order = ORDER.get(m.key)!;
    if (g[m.key] !== undefined) issues.push({ line: m.line + 1, message: `section "${lines[m.line]}" appears twice` });
    else if (order < lastOrder) issues.push({ line: m.line + 1, message: `section "${lines[m.line]}" is out of order` });
    lastOrder = Math.max(lastOrder, order);
    // The body runs to the next header, less the blank line that separates sections.
    const body = lines.slice(m.line + 1, next).join('\n');
    g[m.key] = next < lines.length && body.endsWith('\n') ? body.slice(0, -1) : body;
  });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: g };
}
