#!/usr/bin/env python3
"""Golden cases for @diffworld/dataset's pyJsonDumps / pyJsonParse / pyFloatRepr (stdlib only).

Writes test-data/dataset/pyjson_golden.jsonl (dumps cases) and pyjson_floats.jsonl (float repr
cases). Run from the repository root:  python3 tools/golden/pyjson_cases.py
"""
import json
import math
import os
import random
import struct

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test-data', 'dataset')

VALUES = [
    None, True, False, 0, -1, 1, 2**53, 2**53 + 1, 2**64, -(2**70), 10**21,
    0.0, -0.0, 1.0, -1.0, 1.5, 0.1, 1e16, 1e15, 123456789012345678.0, 1e-4, 1e-5, 1.5e-7,
    1e22, 1e300, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, float('inf'), float('-inf'),
    float('nan'), 3.141592653589793, 100.0, 1234.5678,
    '', 'plain', 'quote " backslash \\ slash /', 'ctl \x00\x01\x1f\x7f \b\f\n\r\t',
    'é ü ß 中文 日本語', 'emoji 😀 🎉 astral 𝔘', '\u2028\u2029', '\ud800 lone', 'tail \udfff',
    [], {}, [[]], {'a': {}}, [1, [2, [3, []]]],
    {'b': 1, 'a': 2, '10': 3, '2': 4, 'é': 5, '\uffff': 6, '😀': 7, 'A': 8},
    [{'role': 'system', 'content': 'You are an agent.\nRules: "be brief".'},
     {'role': 'user', 'content': 'Observation: you see a 🍎 and 2.0 kg of ß'},
     {'role': 'assistant', 'content': '[{"name": "go", "parameters": {"to": "kitchen"}}]'}],
    {'nested': {'z': [1.0, 2, {'y': None, 'x': [True, False]}], 'a': -0.0}},
]

OPTION_SETS = [
    {},
    {'sort_keys': True},
    {'ensure_ascii': False},
    {'separators': [',', ':']},
    {'sort_keys': True, 'ensure_ascii': False, 'separators': [',', ':']},
    {'indent': 2},
    {'indent': 0},
    {'indent': '\t', 'sort_keys': True},
    {'indent': 2, 'separators': [', ', ': ']},
]


def dumps_cases():
    rows = []
    for value in VALUES:
        text = json.dumps(value)
        for opts in OPTION_SETS:
            kw = dict(opts)
            if 'separators' in kw:
                kw['separators'] = tuple(kw['separators'])
            rows.append({'input': text, 'options': opts, 'output': json.dumps(value, **kw)})
    return rows


def float_cases():
    rng = random.Random(1234)
    xs = [0.1, 0.2, 0.3, 1 / 3, 2 / 3, 1e16, 9999999999999998.0, 1e-4, 9.999999999999999e-05,
          123e-20, 5e-324, 1.7976931348623157e308, 4.35, 0.000123, 1234567.0]
    for _ in range(3000):
        bits = rng.getrandbits(64)
        x = struct.unpack('<d', struct.pack('<Q', bits))[0]
        if math.isfinite(x):
            xs.append(x)
    for _ in range(2000):  # values around the positional / scientific switch
        xs.append(rng.uniform(-1, 1) * 10 ** rng.randint(-8, 20))
    for _ in range(500):
        xs.append(float(rng.randint(-10**18, 10**18)))
    return [{'bits': struct.pack('>d', x).hex(), 'repr': repr(x), 'dumps': json.dumps(x)} for x in xs]


def write(name, rows):
    path = os.path.join(OUT, name)
    with open(path + '.tmp', 'w', encoding='ascii') as f:
        for r in rows:
            f.write(json.dumps(r) + '\n')
    os.replace(path + '.tmp', path)
    print(f'wrote {len(rows)} cases to {os.path.normpath(path)}')


if __name__ == '__main__':
    os.makedirs(OUT, exist_ok=True)
    write('pyjson_golden.jsonl', dumps_cases())
    write('pyjson_floats.jsonl', float_cases())
