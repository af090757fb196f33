// Encoded corpora travel between threads as flat typed arrays (one copy, no per-row objects).
import { encodeChat, type ChatMessage, type ChatTemplateOptions } from '../chat.js';
import type { Tokenizer } from '../tokenizer.js';

/** Rows of ids packed end to end: row i is ids[rowStarts[i] .. rowStarts[i+1]). */
export interface PackedIds {
  ids: Int32Array;
  rowStarts: Int32Array;
  /** Present for chats: 1 where the token is trained (see encodeChat). */
  lossMask?: Uint8Array;
}

export function encodeTextsPacked(tok: Tokenizer, texts: readonly string[], addSpecialTokens = true): PackedIds {
  const rows = texts.map((t) => tok.encodeIds(t, { addSpecialTokens }));
  return pack(rows);
}

export function encodeChatsPacked(tok: Tokenizer, chats: readonly ChatMessage[][], opts: ChatTemplateOptions = {}): PackedIds {
  const encoded = chats.map((m) => encodeChat(tok, m, opts));
  const packed = pack(encoded.map((e) => e.ids));
  const lossMask = new Uint8Array(packed.ids.length);
  let at = 0;
  for (const e of encoded) for (const m of e.lossMask) lossMask[at++] = m;
  return { ...packed, lossMask };
}

function pack(rows: readonly number[][]): PackedIds {
  const rowStarts = new Int32Array(rows.length + 1);
  for (let i = 0; i < rows.length; i++) rowStarts[i + 1] = rowStarts[i]! + rows[i]!.length;
  const ids = new Int32Array(rowStarts[rows.length]!);
  rows.forEach((r, i) => ids.set(r, rowStarts[i]!));
  return { ids, rowStarts };
}

/** Row i of a packed result as plain arrays. */
export function unpackRow(p: PackedIds, i: number): { ids: number[]; lossMask?: number[] } {
  const a = p.rowStarts[i]!;
  const b = p.rowStarts[i + 1]!;
  const ids = Array.from(p.ids.subarray(a, b));
  return p.lossMask ? { ids, lossMask: Array.from(p.lossMask.subarray(a, b)) } : { ids };
}

/** Concatenates packed shards in order. */
export function concatPacked(parts: readonly PackedIds[]): PackedIds {
  const rows = parts.reduce((n, p) => n + p.rowStarts.length - 1, 0);
  const total = parts.reduce((n, p) => n + p.ids.length, 0);
  const ids = new Int32Array(total);
  const rowStarts = new Int32Array(rows + 1);
  const withMask = parts.length > 0 && parts.every((p) => p.lossMask);
  const lossMask = withMask ? new Uint8Array(total) : undefined;
  let idAt = 0;
  let rowAt = 0;
  for (const p of parts) {
    ids.set(p.ids, idAt);
    if (lossMask && p.lossMask) lossMask.set(p.lossMask, idAt);
    for (let i = 1; i < p.rowStarts.length; i++) rowStarts[++rowAt] = idAt + p.rowStarts[i]!;
    idAt += p.ids.length;
  }
  return lossMask ? { ids, rowStarts, lossMask } : { ids, rowStarts };
}
