// The tokenizer.json pipelines of the families DiffWorld loads (Qwen2/3, Llama-3, Llama-2 /
// Mistral-v0.1, Mistral-v0.3, Metaspace with split) against Python `tokenizers`: the files and
// encodings come from tools/golden/tokenizer_families.py; every text must give the same ids and
// tokens (with and without the post-processor's tokens), the same decoded text (with and without
// special tokens) and, where this package computes offsets (byte-level files), the same offsets.
// Until the files exist the test skips with the reason, and fails under CI=true.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TEST_DATA } from './testing.js';
import { Tokenizer } from './tokenizer.js';

const CI = process.env['CI'] === 'true' || process.env['CI'] === '1';
const DIR = process.env['TOKENIZER_FAMILIES_GOLDEN'] ?? `${TEST_DATA}golden/tokenizer-families/`;
const FAMILIES = ['qwen2', 'llama3', 'llama2', 'mistral-v3', 'metaspace-split'] as const;

interface Row {
  ids: number[];
  tokens: string[];
  offsets: [number, number][];
  ids_no_special: number[];
  decoded: string;
  decoded_skip_special: string;
}
interface Golden {
  tokenizers_version: string;
  texts: string[];
  families: Record<string, Row[]>;
}

/** UTF-16 offsets → code points (what Python reports). */
function toCodePoints(text: string, offsets: [number, number][]): [number, number][] {
  const cp = new Int32Array(text.length + 1);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    cp[i] = n;
    const c = text.charCodeAt(i);
    if (!(c >= 0xd800 && c <= 0xdbff && i + 1 < text.length)) n++;
  }
  cp[text.length] = n;
  return offsets.map(([a, b]) => [cp[a]!, cp[b]!]);
}

describe('tokenizer families: golden encodings by Python tokenizers', () => {
  const path = `${DIR}encodings.json`;
  const golden = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Golden) : undefined;
  for (const family of FAMILIES) {
    it(`${family}: ids, tokens, decode and offsets equal Python's`, (ctx) => {
      if (!golden) {
        const reason = `${path} is missing — run \`python3 tools/golden/tokenizer_families.py --out test-data/golden/tokenizer-families\` on a host with tokenizers`;
        if (CI) throw new Error(reason);
        ctx.skip(reason);
        return;
      }
      const tok = Tokenizer.load(`${DIR}${family}.tokenizer.json`);
      const rows = golden.families[family]!;
      golden.texts.forEach((text, i) => {
        const want = rows[i]!;
        const where = `${family} ${JSON.stringify(text)}`;
        const e = tok.encode(text);
        expect({ ids: e.ids, tokens: e.tokens }, where).toEqual({ ids: want.ids, tokens: want.tokens });
        expect(tok.encodeIds(text, { addSpecialTokens: false }), where).toEqual(want.ids_no_special);
        expect(tok.decode(e.ids), where).toBe(want.decoded);
        expect(tok.decode(e.ids, { skipSpecialTokens: true }), where).toBe(want.decoded_skip_special);
        if (e.offsets) expect(toCodePoints(text, e.offsets), where).toEqual(want.offsets);
      });
    });
  }
});
