#!/usr/bin/env python3
"""Golden renderings of the models' own chat templates by transformers (issue 33).

For each template of test-data/chat-templates/templates.json (Qwen3, Llama-3.2, Mistral-Nemo,
LFM2.5) and each conversation of test-data/chat-templates/cases.json that names it, renders the
conversation with transformers' apply_chat_template (tokenize=False; tools, add_generation_prompt
and the case's keyword arguments as given) on a tokenizer built offline: a character-level WordLevel
model whose special tokens are the model family's, with the template as its chat_template. A
template that raises (raise_exception) gives its message instead of a text. For cases marked "mask"
on templates with {% generation %} blocks, the assistant token mask of apply_chat_template(...,
return_assistant_tokens_mask=True) is turned into character spans through the token offsets.
strftime_now reads a frozen clock (cases.json "now"), so the files do not depend on the day.

Writes test-data/golden/chat-templates.json (or the path given with --out).

Run from the repository root, offline:  python3 tools/golden/chat_templates.py --out test-data/golden/chat-templates.json
Needs: transformers (>= 4.45) and tokenizers; nothing is downloaded.
"""
import argparse
import datetime as _datetime
import json
import os
import sys

import tokenizers
import transformers
from tokenizers import Regex, Tokenizer, models, pre_tokenizers
try:
    from transformers import PreTrainedTokenizerFast
except ImportError:  # transformers 5 names the tokenizers-backed class TokenizersBackend
    from transformers import TokenizersBackend as PreTrainedTokenizerFast

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "test-data", "chat-templates")


def freeze_clock(now_iso):
    """Makes strftime_now (datetime.now().strftime in transformers' chat_template_utils) read `now`."""
    frozen = _datetime.datetime.fromisoformat(now_iso)

    class FrozenDatetime(_datetime.datetime):
        @classmethod
        def now(cls, tz=None):
            return frozen

    import transformers.utils.chat_template_utils as ctu

    if hasattr(ctu, "datetime"):
        ctu.datetime = FrozenDatetime
    # The compiled templates are cached; none was compiled yet, but clear it in case.
    compile_fn = getattr(ctu, "_compile_jinja_template", None)
    if compile_fn is not None and hasattr(compile_fn, "cache_clear"):
        compile_fn.cache_clear()
    return frozen


def char_tokenizer(chars, special_tokens, template):
    """A character-level tokenizer (offsets = characters) with the family's special tokens and template."""
    vocab = {"[UNK]": 0}
    for c in sorted(chars):
        vocab.setdefault(c, len(vocab))
    backend = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    backend.pre_tokenizer = pre_tokenizers.Split(Regex(r"[\s\S]"), behavior="isolated")
    return PreTrainedTokenizerFast(tokenizer_object=backend, chat_template=template, **{"unk_token": "[UNK]", **special_tokens})


def render(tok, case, tools):
    kwargs = dict(case.get("kwargs", {}))
    return tok.apply_chat_template(
        case["messages"],
        tools=tools if case.get("tools") else None,
        tokenize=False,
        add_generation_prompt=case["add_generation_prompt"],
        **kwargs,
    )


def assistant_spans(tok, case, tools, text):
    """Character spans [start, end) of the tokens apply_chat_template marks as assistant tokens."""
    out = tok.apply_chat_template(
        case["messages"],
        tools=tools if case.get("tools") else None,
        tokenize=True,
        return_dict=True,
        return_assistant_tokens_mask=True,
        add_generation_prompt=case["add_generation_prompt"],
        **dict(case.get("kwargs", {})),
    )
    mask = out["assistant_masks"]
    enc = tok(text, add_special_tokens=False, return_offsets_mapping=True)
    if list(enc["input_ids"]) != list(out["input_ids"]):
        raise SystemExit(f"{case['id']}: tokenizing the rendered text differs from apply_chat_template's ids")
    spans = []
    for m, (a, b) in zip(mask, enc["offset_mapping"]):
        if not m:
            continue
        if spans and spans[-1][1] == a:
            spans[-1][1] = b
        else:
            spans.append([a, b])
    return spans  # code-point offsets


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "test-data", "golden", "chat-templates.json"))
    args = ap.parse_args()

    with open(os.path.join(DATA, "templates.json"), encoding="utf-8") as f:
        templates = json.load(f)
    with open(os.path.join(DATA, "cases.json"), encoding="utf-8") as f:
        spec = json.load(f)
    frozen = freeze_clock(spec["now"])
    tools = spec["tools"]

    # The clock must really be frozen, or the date-dependent cases would differ from day to day.
    probe = char_tokenizer("x", {}, "{{ strftime_now('%Y-%m-%d %H:%M:%S') }}")
    got = probe.apply_chat_template([{"role": "user", "content": "x"}], tokenize=False)
    if got != frozen.strftime("%Y-%m-%d %H:%M:%S"):
        raise SystemExit(f"could not freeze strftime_now (got {got!r}); this transformers version defines it elsewhere")

    results = {}
    for name, t in templates.items():
        with open(os.path.join(DATA, t["file"]), encoding="utf-8") as f:
            source = f.read()
        specials = t["special_tokens"]
        # First pass: the texts (any vocabulary renders), to learn which characters the tokenizer needs.
        plain = char_tokenizer("", specials, source)
        rendered = {}
        for case in spec["cases"]:
            if name not in case["templates"]:
                continue
            key = f"{name}/{case['id']}"
            try:
                rendered[key] = {"text": render(plain, case, tools)}
            except Exception as e:  # jinja2's TemplateError from raise_exception, as transformers raises it
                rendered[key] = {"error": str(e), "error_type": type(e).__name__}
        chars = set("".join(r.get("text", "") for r in rendered.values()))
        tok = char_tokenizer(chars, specials, source)
        has_generation = "generation" in source and "endgeneration" in source
        for case in spec["cases"]:
            key = f"{name}/{case['id']}"
            if key not in rendered:
                continue
            r = rendered[key]
            if "text" in r and case.get("mask") and has_generation:
                r["assistant_spans"] = assistant_spans(tok, case, tools, r["text"])
            results[key] = r
        print(f"{name}: {sum(1 for k in results if k.startswith(name + '/'))} cases", file=sys.stderr)

    doc = {
        "transformers_version": transformers.__version__,
        "tokenizers_version": tokenizers.__version__,
        "now": spec["now"],
        "offsets": "assistant_spans are [start, end) in code points of text",
        "results": results,
    }
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"wrote {args.out}: {len(results)} renderings", file=sys.stderr)


if __name__ == "__main__":
    main()
