// A TurnCodec for ChatML-style agents on a real tokenizer: the prompt is the system message and the
// first observation as a user turn, followed by the assistant header; a policy turn ends with
// <|im_end|>; each observation is "\n<|im_start|>user\n…<|im_end|>\n<|im_start|>assistant\n".
// Pieces are encoded with the tokenizer package's chat template one segment at a time, so the ids
// of a rollout equal encodeChat() of its message list (prefix-preserving; TRL's requirement in
// grpo-and-metrics.md A7) whenever the policy's tokens are the canonical encoding of its text.
import type { Observation, TaskRef } from '@diffworld/env-core';
import { type ChatTemplateOptions, SPECIAL_TOKENS, type Tokenizer, encodeChat } from '@diffworld/tokenizer';
import type { TurnCodec } from './rollout.js';

export interface ChatCodecOptions extends Pick<ChatTemplateOptions, 'style' | 'emptyThinkBlock'> {
  /** The system message of every episode (or a function of the task); none when undefined. */
  system?: string | ((task: TaskRef) => string);
}

export class ChatTurnCodec implements TurnCodec {
  readonly endOfTurn: number;
  private readonly template: ChatTemplateOptions;
  private readonly newline: number[];

  constructor(
    readonly tokenizer: Tokenizer,
    private readonly opts: ChatCodecOptions = {},
  ) {
    this.endOfTurn = tokenizer.requireId(SPECIAL_TOKENS.imEnd);
    this.template = { ...(opts.style ? { style: opts.style } : {}), ...(opts.emptyThinkBlock ? { emptyThinkBlock: true } : {}), addGenerationPrompt: true };
    this.newline = tokenizer.encodeIds('\n', { addSpecialTokens: false });
  }

  encodePrompt(observation: Observation, task: TaskRef): number[] {
    const system = typeof this.opts.system === 'function' ? this.opts.system(task) : this.opts.system;
    const messages = [...(system === undefined ? [] : [{ role: 'system' as const, content: system }]), { role: 'user' as const, content: observation.text }];
    return encodeChat(this.tokenizer, messages, this.template).ids;
  }

  encodeObservation(observation: Observation): number[] {
    // The newline that closes the assistant message, then the user turn and the next assistant header.
    return [...this.newline, ...encodeChat(this.tokenizer, [{ role: 'user', content: observation.text }], this.template).ids];
  }

  /** Ids of an assistant message's content (for demonstrations). */
  encodeTurn(text: string): number[] {
    return text === '' ? [] : this.tokenizer.encodeIds(text, { addSpecialTokens: false });
  }

  decodeTurn(ids: readonly number[]): string {
    return this.tokenizer.decode(ids, { skipSpecialTokens: true });
  }
}
