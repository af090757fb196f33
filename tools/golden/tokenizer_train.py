#!/usr/bin/env python3
"""Golden vectors for @diffworld/tokenizer (issue 4).

Trains a byte-level BPE with the Python `tokenizers` library on test-data/tokenizer/corpus.txt
(same pre-tokenizer, special tokens, vocabulary size and training units as our TypeScript
trainer), then encodes test-data/tokenizer/heldout.json with that tokenizer AND with our trained
test-data/tokenizer/ours.tokenizer.json. Writes to test-data/golden/tokenizer_train/:
  python.tokenizer.json   the tokenizer trained by Python
  encodings.json          ids / tokens / offsets / decoded text per held-out text, for both files

Run from the repository root:  python3 tools/golden/tokenizer_train.py
Needs: pip install tokenizers   (any version >= 0.15)
"""
import json
import os
import re
import sys

import tokenizers
from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, processors, trainers

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "test-data", "tokenizer")
OUT = os.path.join(ROOT, "test-data", "golden", "tokenizer_train")

# Must equal packages/tokenizer/src (QWEN_SPLIT_PATTERN, DEFAULT_SPECIAL_TOKENS, GOLDEN_VOCAB_SIZE).
SPLIT_PATTERN = r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|mask|>", "<|pad|>"]
VOCAB_SIZE = 1024


def train_python() -> Tokenizer:
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(SPLIT_PATTERN), behavior="isolated", invert=False),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
    ])
    tok.post_processor = processors.ByteLevel(trim_offsets=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=VOCAB_SIZE,
        min_frequency=0,
        special_tokens=SPECIAL_TOKENS,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    with open(os.path.join(DATA, "corpus.txt"), encoding="utf-8", newline="") as f:
        text = f.read()
    # Training units: lines with their "\n" kept, as our trainer reads .txt files.
    lines = [l for l in re.split(r"(?<=\n)", text) if l]
    tok.train_from_iterator(lines, trainer=trainer, length=len(lines))
    return tok


def encode_all(tok: Tokenizer, texts):
    out = []
    for t in texts:
        e = tok.encode(t)  # add_special_tokens=True, as in our Tokenizer.encode default
        out.append({
            "ids": e.ids,
            "tokens": e.tokens,
            "offsets": [list(o) for o in e.offsets],  # code-point offsets
            "decoded": tok.decode(e.ids, skip_special_tokens=False),
        })
    return out


def main() -> int:
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(DATA, "heldout.json"), encoding="utf-8") as f:
        heldout = json.load(f)
    py = train_python()
    py_path = os.path.join(OUT, "python.tokenizer.json")
    py.save(py_path, pretty=True)
    ours = Tokenizer.from_file(os.path.join(DATA, "ours.tokenizer.json"))
    result = {
        "tokenizers_version": tokenizers.__version__,
        "python_version": sys.version.split()[0],
        "texts": heldout,
        "python": encode_all(Tokenizer.from_file(py_path), heldout),
        "ours": encode_all(ours, heldout),
    }
    tmp = os.path.join(OUT, "encodings.json.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(result, f, ensure_ascii=False, indent=1)
        f.write("\n")
    os.replace(tmp, os.path.join(OUT, "encodings.json"))
    print(f"wrote {OUT} with tokenizers {tokenizers.__version__}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
