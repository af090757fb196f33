#!/usr/bin/env python3
"""Golden ROUGE-L values from PyPI `rouge` 1.0.1 (pltrdy) — the number the reference evaluate.py reports.

`rouge` is pure Python (it needs only `six`), so this runs anywhere:
    pip install rouge==1.0.1 && python3 tools/golden/eval_rouge_pltrdy.py
or, without pip, against a checkout of github.com/pltrdy/rouge at tag 1.0.1 (a one-line `six.py`
with `string_types = (str,)` next to it is enough):
    PLTRDY_ROUGE_PATH=/path/to/checkout python3 tools/golden/eval_rouge_pltrdy.py
Reads test-data/golden/eval_metrics/inputs.json (bleu_pairs) plus edge cases below, scores each pair
exactly as sdar/evaluate.py does (`get_scores(pred or " ", ref or " ")[0]["rouge-l"]`, any exception
-> 0.0, under CPython's default recursion limit) and writes test-data/golden/eval_metrics/pltrdy_rouge.json.
"""
import json
import os
import sys

if os.environ.get("PLTRDY_ROUGE_PATH"):
    sys.path.insert(0, os.environ["PLTRDY_ROUGE_PATH"])
from rouge import Rouge  # noqa: E402

DIR = os.path.join("test-data", "golden", "eval_metrics")

EDGE = [
    ("", ""), ("", "x"), ("...", "a"), ("3.14", "3.15"), ("a a a", "a"), ("b a", "a b. a"),
    ('{"a":1.5,"b":"x.y"}', '{"a":1.5,"b":"x.z"}'), ("The door is open.", "The door is closed."),
    ("You see a mug 1, a key 2.", "you see a Mug 1 , a key 2"), ("\u4e16\u754c \u4f60\u597d. ok", "\u4e16\u754c. ok"),
    ("a\x1cb c", "a b c"), (" ".join(f"w{i}" for i in range(989)), " ".join(f"w{i}" for i in range(989))),
    (" ".join(f"w{i}" for i in range(990)), " ".join(f"w{i}" for i in range(990))),
]


# The stack must be as deep as in `python sdar/evaluate.py` when get_scores runs (<module>, main,
# score_file, compute_metrics: 4 frames), so that RecursionError strikes at the same sentence length.
# No comprehension in main: under CPython 3.11 a comprehension is a frame of its own.
def compute_metrics(r, pred, ref):
    try:
        return r.get_scores(pred or " ", ref or " ")[0]["rouge-l"]
    except Exception:
        return {"f": 0.0, "p": 0.0, "r": 0.0}


def score_file(r, pred, ref):
    return compute_metrics(r, pred, ref)


def main():
    with open(os.path.join(DIR, "inputs.json")) as f:
        inp = json.load(f)
    r = Rouge()
    pairs = [(p["hyp"], p["refs"][0]) for p in inp["bleu_pairs"]] + EDGE
    cases = []
    for p, q in pairs:
        cases.append({"pred": p, "ref": q, "rouge_l": score_file(r, p, q)})
    out = {"rouge_version": "1.0.1", "python": sys.version.split()[0], "cases": cases}
    path = os.path.join(DIR, "pltrdy_rouge.json")
    with open(path + ".tmp", "w") as f:
        json.dump(out, f)
    os.replace(path + ".tmp", path)
    print(f"wrote {path}: {len(pairs)} cases")


if __name__ == "__main__":
    main()
