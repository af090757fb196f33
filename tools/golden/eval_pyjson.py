#!/usr/bin/env python3
"""Golden vectors for @diffworld/eval's Python-compatible JSON and the three evaluate.py normalisations.

Standard library only (json, re): run with any python3 >= 3.11 from the repository root:
    python3 tools/golden/eval_pyjson.py
Writes test-data/golden/eval_pyjson/cases.json. The normalisations below follow the documented rules
of the upstream sdar / wedlm / llm_training evaluate.py (shared/reference/upstream-paper-repo.md §2).
"""
import json
import os
import re

OUT = os.path.join("test-data", "golden", "eval_pyjson", "cases.json")

TEXTS = [
    '{"b": 2, "a": 1}', '{"a":1.0,"b":[1,2.50,3e2]}', '  [1, 2, 3]  ', '1', '1.0', 'true', 'null', '"abc"',
    '123456789012345678901234567890', '-0', '-0.0', '1E400', '-1e400', 'NaN', '[NaN]', 'Infinity', '-Infinity',
    '1e16', '1e15', '1e-5', '0.0001', '0.1', '1.5e300', '12345678.9', '100000000000000000000.0', '5e-324',
    '{"\\ud83d\\ude00": 1, "\\uffff": 2, "a": 3, "\\u00e9": 4}', '{"k": "line\\nbreak\\ttab\\u0001\\u007f\\"q\\\\"}',
    '{"a": 1, "a": 2}', '{"x": {"z": [], "y": {}}}', '[1,]', '{"a" 1}', "{'a': 1}", '01', '1.', '.5', '+1',
    '\ufeff{"a":1}', '"\\ud800"', '{"t": true, "f": false, "n": null}', '2.5e-3', '-12.0e+2', '1e22', '9007199254740993',
    '"caf\u00e9 \u4e16\u754c"', '', '   ', 'not json', '{"a": [1, {"b": 2}]} trailing',
]

# Texts with tags for the normalisations.
TAGGED = [
    '<think>plan</think>{"b": 1, "a": 2}', '<tool_response>\n{"x": 1.0}\n</tool_response>', 'pre <tool_response> a </tool_response> post',
    '<think>a</think>b<think>c</think>d', '<think>unclosed {"a":1}', '</think>{"a": 1}', '<tool_response >{"k":"v"}</tool_response >',
    '<tool_response>\x1c{"a":1}\x85</tool_response>', '\x1c\x85 hello \u3000', '\ufeff hi', '<think>\n\n</think>\n\n<tool_response>\n[1, 2]\n</tool_response>',
    '<tool_response>first</tool_response><tool_response>second</tool_response>', 'ERROR: boom', '', '<think>only</think>',
    '{"output": {"r": 1}, "exception": null, "api_name": "x", "input": {}}', '<tool_response>{"output": 5}</tool_response>',
] + TEXTS

THINK = re.compile(r"<think>.*?</think>", re.DOTALL)
WRAP = re.compile(r"<tool_response>\s*(.*?)\s*</tool_response>", re.DOTALL)
TAG = re.compile(r"</?(?:tool_response|think)\s*>")


def strip_tags(text, think):
    if think:
        text = THINK.sub("", text)
    m = WRAP.search(text)
    if m:
        return m.group(1).strip()
    return TAG.sub("", text).strip()


def canon(text, seps):
    try:
        return json.dumps(json.loads(text), sort_keys=True, ensure_ascii=False, separators=seps)
    except (json.JSONDecodeError, TypeError):
        return text.strip()


def extract(text, think):
    s = strip_tags(text, think)
    try:
        obj = json.loads(s)
    except Exception:
        return s
    if not isinstance(obj, dict):
        return s
    keep = {k: obj[k] for k in ("output", "exception") if k in obj}
    if not keep:
        return s
    return json.dumps(keep, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def loads_or_none(t):
    try:
        return json.loads(t)
    except (json.JSONDecodeError, TypeError, ValueError):
        return None


def main():
    json_cases = []
    for t in TEXTS:
        try:
            v = json.loads(t)
            ok = True
        except (json.JSONDecodeError, ValueError):
            ok = False
        case = {"text": t, "ok": ok}
        if ok:
            case["compact_sorted"] = json.dumps(v, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
            case["default"] = json.dumps(v)
            case["indent2"] = json.dumps(v, indent=2)
        json_cases.append(case)
    parsed = [(t, loads_or_none(t)) for t in TEXTS]
    ok_texts = [t for t in TEXTS if any(c["text"] == t and c["ok"] for c in json_cases)]
    eq = [[loads_or_none(a) == loads_or_none(b) for b in ok_texts] for a in ok_texts]
    extra_eq = [
        ["1", "1.0"], ["1", "true"], ["0", "false"], ["0.0", "false"], ["[1, 2]", "[1.0, true]"], ['{"a": 1}', '{"a": 1.0}'],
        ["NaN", "NaN"], ["[NaN]", "[NaN]"], ['{"a": NaN}', '{"a": NaN}'], ["9007199254740993", "9007199254740992.0"],
        ["9007199254740992", "9007199254740992.0"], ['"1"', "1"], ["null", "false"], ["[]", "{}"], ['{"a": [1, {"b": 2}]}', '{"a": [1.0, {"b": 2.0}]}'],
        ["1e400", "Infinity"], ["0.1", "0.10000000000000001"], ['{"a":1,"b":2}', '{"b":2,"a":1,"c":3}'],
    ]
    pair_cases = [{"a": a, "b": b, "equal": json.loads(a) == json.loads(b)} for a, b in extra_eq]
    norm_cases = []
    for t in TAGGED:
        norm_cases.append({
            "text": t,
            "sdar": canon(strip_tags(t, True), (",", ":")),
            "wedlm": canon(strip_tags(t, False), (",", ":")),
            "llm_training_prediction": canon(TAG.sub("", t).strip(), None),
            "llm_training_reference": canon(t, None),
            "extract_output_sdar": extract(t, True),
            "extract_output_wedlm": extract(t, False),
        })
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT + ".tmp", "w") as f:
        json.dump({"json": json_cases, "equality_matrix": {"texts": ok_texts, "equal": eq}, "pairs": pair_cases, "normalize": norm_cases}, f, indent=1, ensure_ascii=True)
    os.replace(OUT + ".tmp", OUT)
    print(f"wrote {OUT}: {len(json_cases)} json, {len(pair_cases)} pairs, {len(norm_cases)} normalisations")


if __name__ == "__main__":
    main()
