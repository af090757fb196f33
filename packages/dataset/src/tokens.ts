// Token counts drive length budgets. The real tokenizer lives in @diffworld/tokenizer (which
// depends on this package), so counting is a function passed in; the default is a cheap estimate.

/** Counts the tokens of a text. Plug in a real tokenizer: `(t) => tokenizer.encode(t).length`. */
export type TokenCounter = (text: string) => number;

/**
 * The default estimate: one token per 4 UTF-8 bytes, rounded up. Byte-level BPE vocabularies of
 * ~150k entries (Qwen3, LLaMA-3) average about 4 bytes per token on English text and code; CJK
 * text (3 bytes per character, ~1 token per character) is undercounted by about 25%.
 */
export const approxTokenCount: TokenCounter = (text) => Math.ceil(Buffer.byteLength(text, 'utf8') / 4);
