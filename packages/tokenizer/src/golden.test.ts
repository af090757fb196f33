// Golden test against Python `tokenizers`. The vectors come from tools/golden/tokenizer_train.py
// (run on a host with `pip install tokenizers`); without them this test fails, on purpose.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GOLDEN_DIR, OURS_PATH } from './testing.js';
import { Tokenizer } from './tokenizer.js';

interface PyEncoding {
  ids: number[];
  tokens: string[];
  offsets: [number, number][];
  decoded: string;
}
interface Golden {
  tokenizers_version: string;
  texts: string[];
  python: PyEncoding[];
  ours: PyEncoding[];
}

const ENCODINGS = `${GOLDEN_DIR}encodings.json`;
const PY_TOKENIZER = `${GOLDEN_DIR}python.tokenizer.json`;

function loadGolden(): Golden {
  if (!existsSync(ENCODINGS) || !existsSync(PY_TOKENIZER)) {
    throw new Error(`golden vectors missing: ${GOLDEN_DIR} — run \`python3 tools/golden/tokenizer_train.py\` (needs pip install tokenizers) and commit its outputs`);
  }
  return JSON.parse(readFileSync(ENCODINGS, 'utf8')) as Golden;
}

/** UTF-16 offsets → code-point offsets (what Python reports). */
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

describe('golden: @huggingface/tokenizers vs Python tokenizers', () => {
  const golden = loadGolden();
  const cases: Array<[string, string, PyEncoding[]]> = [
    ['Python-trained tokenizer.json', PY_TOKENIZER, golden.python],
    ['our trained tokenizer.json', OURS_PATH, golden.ours],
  ];
  for (const [name, path, expected] of cases) {
    it(`encodes the held-out set identically: ${name}`, () => {
      const tok = Tokenizer.load(path);
      golden.texts.forEach((text, i) => {
        const e = tok.encode(text);
        expect({ ids: e.ids, tokens: e.tokens }, JSON.stringify(text)).toEqual({ ids: expected[i]!.ids, tokens: expected[i]!.tokens });
        expect(tok.decode(e.ids), JSON.stringify(text)).toBe(expected[i]!.decoded);
      });
    });
    it(`gives the same offsets as Python: ${name}`, () => {
      const tok = Tokenizer.load(path);
      golden.texts.forEach((text, i) => {
        expect(toCodePoints(text, tok.encode(text).offsets!), JSON.stringify(text)).toEqual(expected[i]!.offsets);
      });
    });
  }

  it('our trainer learns the same vocabulary and merges as Python on the same corpus', () => {
    const py = JSON.parse(readFileSync(PY_TOKENIZER, 'utf8'));
    const ours = JSON.parse(readFileSync(OURS_PATH, 'utf8'));
    const merges = (m: Array<string | [string, string]>) => m.map((x) => (typeof x === 'string' ? x : x.join(' ')));
    expect(merges(ours.model.merges)).toEqual(merges(py.model.merges));
    expect(ours.model.vocab).toEqual(py.model.vocab);
  });
});
