#!/usr/bin/env python3
"""Golden encodings for the tokenizer.json pipelines of the model families DiffWorld loads (issue 33).

Builds small synthetic tokenizers of each family's shape with the Python `tokenizers` library —
vocabulary and merges trained here on test-data/tokenizer/corpus.txt (deterministic), the rest of
the pipeline written as those models' tokenizer.json files have it — and encodes a fixed set of
texts (Unicode, CJK, emoji, whitespace runs, digits, special and added tokens in the text) with each.

  qwen2          NFC; Split(Qwen2 regex, Isolated) + ByteLevel; ByteLevel post-processor and decoder;
                 specials <|endoftext|> <|im_start|> <|im_end|>, non-special added <think> </think>
  llama3         Split(Llama-3 regex: \\p{N}{1,3}) + ByteLevel(trim_offsets); BPE ignore_merges (with a
                 vocabulary word no merge reaches); Sequence[ByteLevel, TemplateProcessing(<|begin_of_text|> $A)]
  llama2         Llama-2 / Mistral-v0.1: Sequence[Prepend(▁), Replace(' ', ▁)], no pre-tokenizer; BPE with
                 byte_fallback and fuse_unk (<0x00>..<0xFF> in the vocabulary, rare characters left out);
                 TemplateProcessing(<s> $A); decoder Replace(▁, ' '), ByteFallback, Fuse, Strip(' ', 1, 0)
  mistral-v3     Metaspace(▁, prepend_scheme "first", split false); byte_fallback; [INST] [/INST] controls;
                 TemplateProcessing(<s> $A); Metaspace decoder
  metaspace-split Metaspace(▁, prepend_scheme "always", split true) pre-tokenizer and decoder

Writes test-data/golden/tokenizer-families/ (or --out): <family>.tokenizer.json for each and
encodings.json (per family and text: ids, tokens, offsets in code points, ids without special
tokens, decoded text with and without special tokens).

Run from the repository root, offline:  python3 tools/golden/tokenizer_families.py --out test-data/golden/tokenizer-families
Needs: tokenizers (>= 0.19, for ignore_merges and Metaspace's prepend_scheme / split).
"""
import argparse
import json
import os
import re

import tokenizers
from tokenizers import Regex, Tokenizer, models, normalizers, pre_tokenizers, trainers

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "test-data", "tokenizer", "corpus.txt")

QWEN2_SPLIT = r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
LLAMA3_SPLIT = r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
META = "\u2581"

TEXTS = [
    "Hello world",
    " leading space",
    "trailing space ",
    "  double  spaces   and    more  ",
    "tabs\tand\nnewlines\r\n\n\nend",
    "CJK: 世界你好，中文测试。日本語のテキスト",
    "Emoji: 😀👍🏽 👨‍👩‍👧 🇫🇷 mixed👍word",
    "digits 1234567890 3.14159 1,000,000 007",
    "contractions: don't I'm they'll WE'RE it's",
    "Unicode: naïve café résumé Straße ΑΒΓ Привет",
    "decomposed: e\u0301 and é",
    "a zebra crossing",
    "<|im_start|>user\nhi there<|im_end|>\n<|im_start|>assistant\n",
    "<think>\nreasoning\n</think>\n\nanswer",
    "<s>[INST] What is 2+2? [/INST] 4</s>",
    "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nhello<|eot_id|>",
    "",
    " ",
    "\n",
    "supercalifragilisticexpialidocious" * 3,
    "\u00a0nbsp\u2028line\ufeffbom",
]


def corpus_lines():
    with open(CORPUS, encoding="utf-8", newline="") as f:
        text = f.read()
    return [l for l in re.split(r"(?<=\n)", text) if l]


def train_bpe(pre_tokenizer, normalizer, special_tokens, vocab_size, alphabet=None, limit_alphabet=None):
    """Vocabulary and merges learned by BpeTrainer with the given pre-tokenizer and normalizer."""
    tok = Tokenizer(models.BPE())
    if normalizer is not None:
        tok.normalizer = normalizer
    tok.pre_tokenizer = pre_tokenizer
    kwargs = dict(vocab_size=vocab_size, min_frequency=0, special_tokens=special_tokens, show_progress=False)
    if alphabet is not None:
        kwargs["initial_alphabet"] = alphabet
    if limit_alphabet is not None:
        kwargs["limit_alphabet"] = limit_alphabet
    lines = corpus_lines()
    tok.train_from_iterator(lines, trainer=trainers.BpeTrainer(**kwargs), length=len(lines))
    model = json.loads(tok.to_str())["model"]
    return model["vocab"], model["merges"]


def added(id_, content, special=True):
    return {"id": id_, "content": content, "single_word": False, "lstrip": False, "rstrip": False, "normalized": False, "special": special}


def bpe_model(vocab, merges, **options):
    model = {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None, "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False, "ignore_merges": False}
    model.update(options)
    model["vocab"] = vocab
    model["merges"] = merges
    return model


def tokenizer_json(model, added_tokens, normalizer, pre_tokenizer, post_processor, decoder):
    return {"version": "1.0", "truncation": None, "padding": None, "added_tokens": added_tokens, "normalizer": normalizer, "pre_tokenizer": pre_tokenizer, "post_processor": post_processor, "decoder": decoder, "model": model}


def template_bos(bos, bos_id):
    return {
        "type": "TemplateProcessing",
        "single": [{"SpecialToken": {"id": bos, "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
        "pair": [{"SpecialToken": {"id": bos, "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}, {"SpecialToken": {"id": bos, "type_id": 1}}, {"Sequence": {"id": "B", "type_id": 1}}],
        "special_tokens": {bos: {"id": bos, "ids": [bos_id], "tokens": [bos]}},
    }


def byte_level_split(pattern, trim_offsets):
    return {"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False},
        {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": trim_offsets, "use_regex": False},
    ]}


def append_tokens(vocab, contents, special=True):
    """Added tokens after the vocabulary (ids continue from its end)."""
    next_id = max(vocab.values()) + 1
    out = []
    for c in contents:
        out.append(added(next_id, c, special))
        next_id += 1
    return out


def qwen2():
    specials = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
    pre = pre_tokenizers.Sequence([pre_tokenizers.Split(Regex(QWEN2_SPLIT), behavior="isolated", invert=False), pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
    vocab, merges = train_bpe(pre, normalizers.NFC(), specials, 800, alphabet=pre_tokenizers.ByteLevel.alphabet())
    # The trainer puts the specials first in the vocabulary (as trained files have them); <think> and
    # </think> are added after it, not special, as in Qwen3's file.
    added_tokens = [added(vocab[s], s) for s in specials] + append_tokens(vocab, ["<think>", "</think>"], special=False)
    return tokenizer_json(
        bpe_model(vocab, merges),
        added_tokens,
        {"type": "NFC"},
        byte_level_split(QWEN2_SPLIT, False),
        {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False},
        {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False},
    )


def llama3():
    pre = pre_tokenizers.Sequence([pre_tokenizers.Split(Regex(LLAMA3_SPLIT), behavior="isolated", invert=False), pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
    vocab, merges = train_bpe(pre, None, [], 900, alphabet=pre_tokenizers.ByteLevel.alphabet())
    # A whole word in the vocabulary that no merge builds: only ignore_merges yields it as one token.
    if "\u0120zebra" not in vocab:
        vocab["\u0120zebra"] = max(vocab.values()) + 1
    specials = ["<|begin_of_text|>", "<|end_of_text|>", "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>", "<|reserved_special_token_0|>"]
    added_tokens = append_tokens(vocab, specials)
    bos_id = added_tokens[0]["id"]
    return tokenizer_json(
        bpe_model(vocab, merges, ignore_merges=True),
        added_tokens,
        None,
        byte_level_split(LLAMA3_SPLIT, True),
        {"type": "Sequence", "processors": [
            {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": False, "use_regex": True},
            template_bos("<|begin_of_text|>", bos_id),
        ]},
        {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True},
    )


def sentencepiece_vocab(extra_specials=()):
    """<unk> <s> </s> (+ controls), the 256 <0xNN> byte tokens, then merges learned per ▁-word."""
    pre = pre_tokenizers.Metaspace(replacement=META, prepend_scheme="always", split=True)
    learned, merges = train_bpe(pre, None, ["<unk>", "<s>", "</s>"], 700, limit_alphabet=70)
    specials = ["<unk>", "<s>", "</s>", *extra_specials]
    vocab = {s: i for i, s in enumerate(specials)}
    for b in range(256):
        vocab[f"<0x{b:02X}>"] = len(vocab)
    for token, _ in sorted(learned.items(), key=lambda kv: kv[1]):
        if token not in vocab:
            vocab[token] = len(vocab)
    return vocab, merges, [added(vocab[s], s) for s in specials]


def llama2():
    vocab, merges, added_tokens = sentencepiece_vocab()
    return tokenizer_json(
        bpe_model(vocab, merges, unk_token="<unk>", fuse_unk=True, byte_fallback=True),
        added_tokens,
        {"type": "Sequence", "normalizers": [{"type": "Prepend", "prepend": META}, {"type": "Replace", "pattern": {"String": " "}, "content": META}]},
        None,
        template_bos("<s>", 1),
        {"type": "Sequence", "decoders": [
            {"type": "Replace", "pattern": {"String": META}, "content": " "},
            {"type": "ByteFallback"},
            {"type": "Fuse"},
            {"type": "Strip", "content": " ", "start": 1, "stop": 0},
        ]},
    )


def mistral_v3():
    vocab, merges, added_tokens = sentencepiece_vocab(["[INST]", "[/INST]"])
    meta = {"type": "Metaspace", "replacement": META, "prepend_scheme": "first", "split": False}
    return tokenizer_json(bpe_model(vocab, merges, unk_token="<unk>", fuse_unk=True, byte_fallback=True), added_tokens, None, meta, template_bos("<s>", 1), meta)


def metaspace_split():
    vocab, merges, added_tokens = sentencepiece_vocab()
    meta = {"type": "Metaspace", "replacement": META, "prepend_scheme": "always", "split": True}
    return tokenizer_json(bpe_model(vocab, merges, unk_token="<unk>", byte_fallback=True), added_tokens, None, meta, None, meta)


FAMILIES = {"qwen2": qwen2, "llama3": llama3, "llama2": llama2, "mistral-v3": mistral_v3, "metaspace-split": metaspace_split}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "test-data", "golden", "tokenizer-families"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    doc = {"tokenizers_version": tokenizers.__version__, "texts": TEXTS, "families": {}}
    for name, build in FAMILIES.items():
        # Loading the JSON checks it; what is saved is the library's own serialisation of it.
        tok = Tokenizer.from_str(json.dumps(build()))
        text = tok.to_str(pretty=True)
        with open(os.path.join(args.out, f"{name}.tokenizer.json"), "w", encoding="utf-8") as f:
            f.write(text)
        tok = Tokenizer.from_str(text)
        rows = []
        for t in TEXTS:
            e = tok.encode(t)
            rows.append({
                "ids": e.ids,
                "tokens": e.tokens,
                "offsets": [list(o) for o in e.offsets],
                "ids_no_special": tok.encode(t, add_special_tokens=False).ids,
                "decoded": tok.decode(e.ids, skip_special_tokens=False),
                "decoded_skip_special": tok.decode(e.ids, skip_special_tokens=True),
            })
        doc["families"][name] = rows
        print(f"{name}: vocab {tok.get_vocab_size()}, {sum(len(r['ids']) for r in rows)} tokens over {len(TEXTS)} texts")
    with open(os.path.join(args.out, "encodings.json"), "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
