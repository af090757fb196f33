// Token ids and a loss mask from a model's own chat template. The assistant turns are found from
// the template itself: its `{% generation %}` blocks where it has them (transformers'
// return_assistant_tokens_mask), otherwise by rendering prefixes — the conversation before the turn
// with the generation prompt, and through the turn — and taking what the turn adds. The text is
// tokenized whole (add_special_tokens=False, as apply_chat_template does) and the character spans
// mapped onto its tokens.
import type { ChatEncoding } from '../chat.js';
import { TokenizerError } from '../errors.js';
import type { Tokenizer } from '../tokenizer.js';
import type { ChatTemplate, RenderOptions, TemplateMessage } from './chat-template.js';

export interface TemplateEncodeOptions extends Omit<RenderOptions, 'addGenerationPrompt'> {
  /** Which assistant turns the loss covers: all of them (default) or only the last message. */
  lossOn?: 'assistant' | 'last';
}

export interface TemplateEncoding extends ChatEncoding {
  text: string;
  /** [start, end) UTF-16 offsets in `text` of the trained turns. */
  spans: [number, number][];
}

/** The [start, end) character spans of the assistant turns the loss covers. */
export function assistantSpans(template: ChatTemplate, messages: readonly TemplateMessage[], opts: TemplateEncodeOptions = {}): { text: string; spans: [number, number][] } {
  const render = { ...opts, addGenerationPrompt: false };
  const full = template.renderTracked(messages, render);
  const last = messages.length - 1;
  if (template.hasGenerationBlocks) {
    if (opts.lossOn !== 'last') return { text: full.text, spans: full.generationSpans };
    // Only the final message's block: the one that ends past the rendering of the messages before it.
    if (messages[last]?.role !== 'assistant') return { text: full.text, spans: [] };
    const before = template.render(messages.slice(0, last), { ...opts, addGenerationPrompt: true });
    return { text: full.text, spans: full.generationSpans.filter(([, end]) => end > before.length) };
  }
  const spans: [number, number][] = [];
  messages.forEach((m, i) => {
    if (m.role !== 'assistant' || (opts.lossOn === 'last' && i !== last)) return;
    const prompt = renderPrefix(template, messages, i, { ...opts, addGenerationPrompt: true });
    const through = i === last ? full.text : renderPrefix(template, messages, i + 1, render);
    if (!through.startsWith(prompt) || !full.text.startsWith(through)) {
      throw new TokenizerError([
        {
          code: 'unsupported',
          where: template.where,
          field: `messages[${i}]`,
          detail:
            'the template renders this assistant turn differently once later messages follow (Qwen3, for one, drops earlier think blocks), so its span cannot be found by rendering prefixes; use lossOn "last", or a template with {% generation %} blocks',
        },
      ]);
    }
    spans.push([prompt.length, through.length]);
  });
  return { text: full.text, spans };
}

function renderPrefix(template: ChatTemplate, messages: readonly TemplateMessage[], n: number, opts: RenderOptions): string {
  try {
    return template.render(messages.slice(0, n), opts);
  } catch (e) {
    if (n === 0) return ''; // templates that index messages[0] fail on an empty conversation
    throw e;
  }
}

/** Ids of the rendered chat and 1 on the tokens of the trained assistant turns. */
export function encodeWithChatTemplate(tok: Tokenizer, template: ChatTemplate, messages: readonly TemplateMessage[], opts: TemplateEncodeOptions = {}): TemplateEncoding {
  const { text, spans } = assistantSpans(template, messages, opts);
  const enc = tok.encode(text, { addSpecialTokens: false });
  const lossMask = new Array<number>(enc.ids.length).fill(0);
  if (enc.offsets) {
    // A token is trained when its characters meet a span (transformers: char_to_token(start)…char_to_token(end - 1)).
    enc.offsets.forEach(([a, b], t) => {
      if (spans.some(([s, e]) => a < e && Math.max(b, a + 1) > s)) lossMask[t] = 1;
    });
    return { ids: enc.ids, lossMask, text, spans };
  }
  // No offsets (a normalizer, a Metaspace model): where decoding gives the text back, each token
  // covers what it adds to the decoded prefix (found by bisection at the span edges only).
  const byDecoding = maskByDecoding(tok, enc.ids, text, spans);
  if (byDecoding) return { ids: enc.ids, lossMask: byDecoding, text, spans };
  // Else encode the pieces between span edges and check that they concatenate to the whole
  // encoding, so the mask is exact or refused.
  const cuts = [...new Set([0, ...spans.flat(), text.length])].sort((x, y) => x - y);
  const ids: number[] = [];
  const mask: number[] = [];
  for (let k = 0; k + 1 < cuts.length; k++) {
    const [a, b] = [cuts[k]!, cuts[k + 1]!];
    if (a === b) continue;
    const piece = tok.encodeIds(text.slice(a, b), { addSpecialTokens: false });
    const inSpan = spans.some(([s, e]) => a >= s && b <= e) ? 1 : 0;
    for (const id of piece) {
      ids.push(id);
      mask.push(inSpan);
    }
  }
  if (ids.length !== enc.ids.length || ids.some((id, i) => id !== enc.ids[i])) {
    throw new TokenizerError([
      {
        code: 'unsupported',
        where: template.where,
        field: 'loss mask',
        detail: 'this tokenizer gives no offsets and merges characters across a turn boundary, so the assistant tokens cannot be told apart exactly',
      },
    ]);
  }
  return { ids: enc.ids, lossMask: mask, text, spans };
}

/**
 * The mask from decoded prefixes: token i covers [|decode(ids[:i])|, |decode(ids[:i+1])|) of the
 * text. Null when decoding does not give the text back or a prefix does not decode to a prefix.
 */
function maskByDecoding(tok: Tokenizer, ids: readonly number[], text: string, spans: readonly [number, number][]): number[] | null {
  if (tok.decode(ids) !== text) return null;
  const memo = new Map<number, number>();
  // |decode(ids[:i])|, or -1 where that decoding is not a prefix of the text (a cut inside a character).
  const end = (i: number): number => {
    let v = memo.get(i);
    if (v === undefined) {
      const d = tok.decode(ids.slice(0, i));
      v = text.startsWith(d) ? d.length : -1;
      memo.set(i, v);
    }
    return v;
  };
  // The first token boundary at or after character position p.
  const boundaryAtOrAfter = (p: number): number | null => {
    let lo = 0;
    let hi = ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      let probe = mid;
      while (probe < hi && end(probe) < 0) probe++; // step over cuts inside a character
      if (probe === hi || end(probe) >= p) hi = mid;
      else lo = probe + 1;
    }
    return end(lo) < 0 ? null : lo;
  };
  const mask = new Array<number>(ids.length).fill(0);
  for (const [s, e] of spans) {
    const first = boundaryAtOrAfter(s);
    const last = boundaryAtOrAfter(e);
    if (first === null || last === null || end(first) !== s || end(last) !== e) return null; // a span edge inside a token
    for (let t = first; t < last; t++) mask[t] = 1;
  }
  return mask;
}
