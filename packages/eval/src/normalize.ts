// The three reference normalisations of a world-model output before comparison
// (upstream sdar/, wedlm/ and llm_training/ evaluate.py). Regexes mirror Python `re` with DOTALL;
// `\s` is spelled out as Python's Unicode whitespace set.
import { PY_WS_CLASS, pyStrip } from './pystr.js';
import { pyJsonDumps, tryPyJsonLoads, type PyJson } from './pyjson.js';

export type Normalization = 'sdar' | 'wedlm' | 'llm_training';
export const NORMALIZATIONS: readonly Normalization[] = ['sdar', 'wedlm', 'llm_training'];

const THINK_BLOCK = /<think>[\s\S]*?<\/think>/g;
const WRAPPER = new RegExp(`<tool_response>[${PY_WS_CLASS}]*([\\s\\S]*?)[${PY_WS_CLASS}]*</tool_response>`);
const TAG = new RegExp(`</?(?:tool_response|think)[${PY_WS_CLASS}]*>`, 'g');

const COMPACT: readonly [string, string] = [',', ':'];

/** sdar/wedlm `strip_tags`: drop think blocks (sdar only), unwrap the first tool_response, drop tag tokens. */
export function stripTags(text: string, removeThinkBlocks = true): string {
  const t = removeThinkBlocks ? text.replace(THINK_BLOCK, '') : text;
  const m = WRAPPER.exec(t);
  if (m) return pyStrip(m[1]!);
  return pyStrip(t.replace(TAG, ''));
}

/** Canonical JSON (sorted keys, Python number format) if the text parses, else the stripped text. */
export function canonicalJson(text: string, separators: readonly [string, string] = COMPACT): string {
  const parsed = tryPyJsonLoads(text);
  if (!parsed.ok) return pyStrip(text);
  return pyJsonDumps(parsed.value, { sortKeys: true, ensureAscii: false, separators });
}

/** Normalises one side ('prediction' or 'reference') the way the chosen reference evaluator does. */
export function normalizeText(text: string, variant: Normalization, side: 'prediction' | 'reference'): string {
  switch (variant) {
    case 'sdar':
      return canonicalJson(stripTags(text, true));
    case 'wedlm':
      return canonicalJson(stripTags(text, false));
    case 'llm_training': {
      // Asymmetric: only the prediction loses its tag tokens; default separators (', ', ': ').
      const t = side === 'prediction' ? pyStrip(text.replace(TAG, '')) : text;
      return canonicalJson(t, [', ', ': ']);
    }
  }
}

/** sdar `--extract-output-field`: reduce an api_bank-style reference to its {output, exception}. */
export function extractOutputField(text: string, variant: Normalization = 'sdar'): string {
  const s = stripTags(text, variant === 'sdar');
  const parsed = tryPyJsonLoads(s);
  if (!parsed.ok || !(parsed.value instanceof Map)) return s;
  const keep = new Map<string, PyJson>();
  for (const k of ['output', 'exception']) if (parsed.value.has(k)) keep.set(k, parsed.value.get(k)!);
  if (keep.size === 0) return s;
  return pyJsonDumps(keep, { sortKeys: true, ensureAscii: false, separators: COMPACT });
}
