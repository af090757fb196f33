// Writes the committed fixtures test-data/tokenizer/corpus.txt (training corpus shared with the
// Python golden generator) and heldout.json (texts both tokenizers must encode identically).
// Run: npx tsx packages/tokenizer/scripts/make-corpus.ts
// The committed corpus came from the generator before it moved to the workspace Rng: running this
// again writes a different (equally valid) corpus, after which ours.tokenizer.json
// (UPDATE_GOLDEN=1) and tools/golden/tokenizer_train.py outputs must be regenerated together.
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { writeFileAtomic } from '@diffworld/dataset';
import { syntheticText } from '../src/synthetic.js';

const dir = fileURLToPath(new URL('../../../test-data/tokenizer/', import.meta.url));

// Hand-written lines make sure rare scripts and whitespace shapes occur in training too.
const EXTRA = [
  'Unicode: 世界模型与智能体。東京タワー🗼 and Привет, мир! Ελληνικά κείμενα.\n',
  'Emoji 🙂🚀 👨‍👩‍👧 🇫🇷 ✅ mixed with text.\n',
  '    indented line with trailing spaces   \n',
  'tabs\tand\t\tmore\ttabs\n',
  "Contractions: it's, don't, we'LL, they've, I'm, she'd, THEY'RE.\n",
  'Numbers 1234567890 3.14159 -42 1e-3 0x1F\n',
];

const text = syntheticText(160_000, 20261130) + EXTRA.join('');
writeFileAtomic(join(dir, 'corpus.txt'), text);

const HELDOUT = [
  'Hello world!',
  "I'LL say it's a NEW day, isn't it?",
  '你好，世界！强化学习的世界模型。',
  'こんにちは、東京。한국어도 됩니다.',
  'Emoji: 🙂🚀👍🏽 family 👨‍👩‍👧 flag 🇯🇵 keycap 1️⃣',
  'spaces:     five, tabs:\t\t\ttwo, newlines:\n\n\nthree',
  'trailing spaces   \n   leading spaces',
  'windows\r\nline\r\nendings\r\n',
  'no-break\u00a0space, ideographic\u3000space, next-line\u0085char, bom\ufeffhere, ls\u2028ps\u2029',
  'combining: e\u0301 a\u0308 n\u0303 — Zürich café naïve',
  '<|im_start|>user\nWhat is in the fridge?<|im_end|>\n<|im_start|>assistant\n',
  '<|mask|><|mask|> masked <|mask|>tokens<|pad|><|pad|><|endoftext|>',
  'special-like text <|im_start without closing and <|notatoken|>',
  '[{"name": "spotify__login", "parameters": {"username": "a@b.c", "password": "p@ss"}}]',
  'def f(x):\n    return x ** 2  # square\n',
  'Numbers: 1234567890, 3.14159, -0.5e-10, 2026-11-30T03:21:00Z',
  '> go to countertop 2\nYou arrive at countertop 2. On the countertop 2, you see a apple 1, a mug 3.',
  'Mixed 中文English混合text with 数字123 and emoji🔥inline',
  '',
  ' ',
  '\n',
  'a',
  'Ελληνικά και Русский текст και עברית וערבית العربية',
  'Math: ∀x∈ℝ, x² ≥ 0; ∑ᵢ aᵢ = ∫ f(t) dt ≈ π',
];
writeFileAtomic(join(dir, 'heldout.json'), `${JSON.stringify(HELDOUT, null, 2)}\n`);
console.log(`wrote ${dir}corpus.txt (${text.length} chars) and heldout.json (${HELDOUT.length} texts)`);
