// The anchor-steering test: fixed fields of the observation are given to the world model as
// anchors and the rest is generated around them. The fields are the reference's opening tokens
// (the status line: "Nothing happens.", "You arrive at…", an AppWorld status) and its closing
// tokens, at their own positions. Measured: whether every anchor is kept token for token, and how
// coherent the rest is — ROUGE-L of the whole answer and of the free span (the answer without the
// anchored positions) against the reference — next to the same rows generated without anchors.
// An AR model cannot honour a later span (left-to-right decoding), but it can honour the opening
// one: its steered run forces the reference's opening tokens as the start of the answer
// (ChatGenerator's forcedPrefix) and leaves the closing field to the model, so its "fields kept"
// says how often it then writes the closing field at its position. Its unanchored run's "field
// agreement" says how often it writes both fixed fields on its own.
import type { ChatRow } from '@diffworld/dataset';
import { rougeLScore } from '@diffworld/eval';
import type { Anchor, ChatGenerator } from '@diffworld/mdlm-core';
import type { Tokenizer } from '@diffworld/tokenizer';
import type { SteeringSettings } from '../config/schema.js';

export interface SteeringArm {
  /** Share of rows whose output carries every anchored field at its position. */
  fieldsKept: number;
  /** ROUGE-L F1 (rouge-score) of the whole answer against the reference, mean over rows. */
  rougeL: number;
  /** ROUGE-L F1 of the non-anchored positions against the reference's. */
  freeSpanRougeL: number;
  /** Share of answers equal to the reference (trimmed). */
  exact: number;
}

export interface SteeringResult {
  objective: string;
  rows: number;
  anchorTokens: number;
  unanchored: SteeringArm;
  /** Both anchors honoured (diffusion objectives); absent for AR models, with the reason in `note`. */
  anchored?: SteeringArm;
  /**
   * AR only: the opening anchor forced as the answer's first tokens, the closing one left to the
   * model; fieldsKept is then the share that write the closing field at its position. Absent in
   * results written before prefix forcing existed.
   */
  prefixForced?: SteeringArm;
  note?: string;
  /** A few rows as text, for the report. */
  examples: { reference: string; anchored?: string; prefixForced?: string; unanchored: string }[];
}

/** The runs a steering stage makes for an objective (part of the stage's cache key). */
export function steeringArms(objective: string): string[] {
  return objective === 'ar' ? ['unanchored', 'prefix-forced'] : ['unanchored', 'anchored'];
}

interface Case {
  messages: ChatRow['messages'];
  reference: string;
  refIds: number[];
  anchors: Anchor[];
}

/** Held-out rows whose reference fits the budget (with room for an end token), anchored at both ends. */
export function steeringCases(rows: readonly ChatRow[], tok: Tokenizer, s: SteeringSettings): Case[] {
  const k = s.anchorTokens;
  const out: Case[] = [];
  for (const r of rows) {
    if (out.length >= s.rows) break;
    const reference = r.messages[r.messages.length - 1]!.content;
    const refIds = tok.encodeIds(reference, { addSpecialTokens: false });
    if (refIds.length < 2 * k + 1 || refIds.length > s.maxNewTokens - 1) continue;
    const n = refIds.length;
    out.push({
      messages: r.messages.slice(0, -1),
      reference,
      refIds,
      anchors: [
        { at: 0, tokens: refIds.slice(0, k) },
        { at: n - k, tokens: refIds.slice(n - k) },
      ],
    });
  }
  return out;
}

const kept = (ids: readonly number[], anchors: readonly Anchor[]) => anchors.every((a) => a.tokens.every((t, i) => ids[a.at + i] === t));

function freeSpan(ids: readonly number[], anchors: readonly Anchor[]): number[] {
  const fixed = new Set(anchors.flatMap((a) => a.tokens.map((_, i) => a.at + i)));
  return ids.filter((_, i) => !fixed.has(i));
}

function arm(cases: readonly Case[], outputs: readonly number[][], tok: Tokenizer): SteeringArm {
  let k = 0,
    rl = 0,
    free = 0,
    exact = 0;
  cases.forEach((c, i) => {
    const ids = outputs[i]!;
    const text = tok.decode(ids, { skipSpecialTokens: true });
    if (kept(ids, c.anchors)) k++;
    rl += rougeLScore(text, c.reference).f;
    free += rougeLScore(tok.decode(freeSpan(ids, c.anchors), { skipSpecialTokens: true }), tok.decode(freeSpan(c.refIds, c.anchors), { skipSpecialTokens: true })).f;
    if (text.trim() === c.reference.trim()) exact++;
  });
  const n = cases.length || 1;
  return { fieldsKept: k / n, rougeL: rl / n, freeSpanRougeL: free / n, exact: exact / n };
}

export async function steeringTest(generator: ChatGenerator, tok: Tokenizer, rows: readonly ChatRow[], s: SteeringSettings, seed: number): Promise<SteeringResult> {
  const cases = steeringCases(rows, tok, s);
  const options = { maxNewTokens: s.maxNewTokens, temperature: s.temperature, seed, batchSize: 8 };
  const free = await generator.generate(
    cases.map((c, i) => ({ messages: c.messages, seed: seed + i })),
    options,
  );
  const unanchoredIds = free.map((g) => g.tokenIds);
  const base: SteeringResult = { objective: generator.objective, rows: cases.length, anchorTokens: s.anchorTokens, unanchored: arm(cases, unanchoredIds, tok), examples: [] };
  const show = (ids: number[]) => tok.decode(ids, { skipSpecialTokens: true });
  if (generator.objective === 'ar') {
    const forced = await generator.generate(
      cases.map((c, i) => ({ messages: c.messages, seed: seed + i, forcedPrefix: c.anchors[0]!.tokens })),
      options,
    );
    const forcedIds = forced.map((g) => g.tokenIds);
    base.prefixForced = arm(cases, forcedIds, tok);
    base.note = `an AR model can honour only the opening anchor: its prefix-forced run starts the answer with the reference's first ${s.anchorTokens} tokens and leaves the closing field to the model (left-to-right decoding cannot see a later span), so its "fields kept" is the share that write the closing field at its position`;
    base.examples = cases.slice(0, 3).map((c, i) => ({ reference: c.reference, prefixForced: show(forcedIds[i]!), unanchored: show(unanchoredIds[i]!) }));
    return base;
  }
  const steered = await generator.generate(
    cases.map((c, i) => ({ messages: c.messages, seed: seed + i, anchors: c.anchors })),
    options,
  );
  const anchoredIds = steered.map((g) => g.tokenIds);
  base.anchored = arm(cases, anchoredIds, tok);
  base.examples = cases.slice(0, 3).map((c, i) => ({ reference: c.reference, anchored: show(anchoredIds[i]!), unanchored: show(unanchoredIds[i]!) }));
  return base;
}
