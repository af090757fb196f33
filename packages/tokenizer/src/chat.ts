// ChatML / Qwen-style chat rendering and its token-level loss mask. Every message is encoded as
// its own segments (special marker, role header, content, marker, newline) and the ids are
// concatenated, so the ids of a conversation prefix are a prefix of the ids of the conversation:
// no re-tokenisation drift between prompt and response.
import { TokenizerError } from './errors.js';
import { SPECIAL_TOKENS } from './special.js';
import type { Tokenizer } from './tokenizer.js';
import type { ChatMessage } from '@diffworld/dataset';

// One message type for the workspace: the dataset package's (every chat row holds them).
export type { ChatMessage };

export interface ChatTemplateOptions {
  /** Append `<|im_start|>assistant\n` (the turn the model must write). Default false. */
  addGenerationPrompt?: boolean;
  /** 'chatml': roles as given. 'qwen': tool messages become user turns wrapped in <tool_response>. */
  style?: 'chatml' | 'qwen';
  /** Qwen3 with thinking disabled: every assistant turn starts with an empty think block. */
  emptyThinkBlock?: boolean;
  /** Which messages the loss covers: every assistant message (default) or only the last message. */
  lossOn?: 'assistant' | 'last';
  /**
   * encodeChat only: after each assistant message's <|im_end|>, pad with `id` up to the next
   * multiple of `block` tokens (counted from the first token). Block-diffusion training and its
   * prompts both do this, so a block that ends an answer never holds tokens of the next turn. The
   * pads carry the message's loss flag. Rendered text (renderChat) has no pads.
   */
  padAssistant?: { block: number; id: number };
}

export interface ChatEncoding {
  ids: number[];
  /** 1 where the token is part of a trained response (content + its <|im_end|>), else 0. */
  lossMask: number[];
}

interface Segment {
  text: string;
  special: boolean;
  loss: boolean;
  /** The end marker of an assistant message (where padAssistant pads). */
  endsAnswer?: boolean;
}

const EMPTY_THINK = '<think>\n\n</think>\n\n';

function messageSegments(m: ChatMessage, opts: ChatTemplateOptions, inLoss: boolean): Segment[] {
  let role = m.role;
  let content = m.content;
  if (opts.style === 'qwen' && role === 'tool') {
    role = 'user';
    content = `<tool_response>\n${content}\n</tool_response>`;
  }
  const header = role === 'assistant' && opts.emptyThinkBlock ? `${role}\n${EMPTY_THINK}` : `${role}\n`;
  return [
    { text: SPECIAL_TOKENS.imStart, special: true, loss: false },
    { text: header, special: false, loss: false },
    { text: content, special: false, loss: inLoss },
    { text: SPECIAL_TOKENS.imEnd, special: true, loss: inLoss, endsAnswer: m.role === 'assistant' },
    { text: '\n', special: false, loss: false },
  ];
}

function segments(messages: readonly ChatMessage[], opts: ChatTemplateOptions): Segment[] {
  const out: Segment[] = [];
  messages.forEach((m, i) => {
    if (typeof m?.role !== 'string' || typeof m?.content !== 'string') {
      throw new TokenizerError([{ code: 'bad_option', where: 'chat template', option: `messages[${i}]`, detail: 'must be {role: string, content: string}' }]);
    }
    const inLoss = m.role === 'assistant' && (opts.lossOn !== 'last' || i === messages.length - 1);
    out.push(...messageSegments(m, opts, inLoss));
  });
  if (opts.addGenerationPrompt) {
    // Exactly the first two segments of a rendered assistant message.
    out.push(...messageSegments({ role: 'assistant', content: '' }, opts, false).slice(0, 2));
  }
  return out;
}

/** The chat as text (what HF's apply_chat_template would produce for a ChatML template). */
export function renderChat(messages: readonly ChatMessage[], opts: ChatTemplateOptions = {}): string {
  return segments(messages, opts)
    .map((s) => s.text)
    .join('');
}

/** Token ids and loss mask of a chat, one message segment at a time. */
export function encodeChat(tok: Tokenizer, messages: readonly ChatMessage[], opts: ChatTemplateOptions = {}): ChatEncoding {
  const pad = opts.padAssistant;
  if (pad && !(Number.isInteger(pad.block) && pad.block >= 1 && Number.isInteger(pad.id) && pad.id >= 0))
    throw new TokenizerError([{ code: 'bad_option', where: 'chat template', option: 'padAssistant', detail: `must be { block: integer ≥ 1, id: token id }, got ${JSON.stringify(pad)}` }]);
  const ids: number[] = [];
  const lossMask: number[] = [];
  const cache = new Map<string, number[]>(); // headers and newlines repeat in every message
  for (const seg of segments(messages, opts)) {
    let segIds: number[];
    if (seg.special) segIds = [tok.requireId(seg.text)];
    else if (seg.text === '') segIds = [];
    else if (!seg.loss && seg.text.length < 64) {
      segIds = cache.get(seg.text) ?? tok.encodeIds(seg.text, { addSpecialTokens: false });
      cache.set(seg.text, segIds);
    } else segIds = tok.encodeIds(seg.text, { addSpecialTokens: false });
    for (const id of segIds) {
      ids.push(id);
      lossMask.push(seg.loss ? 1 : 0);
    }
    if (pad && seg.endsAnswer)
      while (ids.length % pad.block !== 0) {
        ids.push(pad.id);
        lossMask.push(seg.loss ? 1 : 0);
      }
  }
  return { ids, lossMask };
}

/** The sequences a BPE trainer should see for a chat: its text segments, without special markers. */
export function chatTrainingTexts(messages: readonly ChatMessage[], opts: ChatTemplateOptions = {}): string[] {
  return segments(messages, opts)
    .filter((s) => !s.special && s.text !== '')
    .map((s) => s.text);
}
