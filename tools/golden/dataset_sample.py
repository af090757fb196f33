#!/usr/bin/env python3
"""A small world-model corpus in the real corpus's shape, encoded by Python (stdlib json).

Each row is system = grounded sections, user = 'State: ' + json.dumps(history) + '\\n\\nAction: ' + action
(exactly as upstream wm_proxy.py builds it), assistant = next observation. The user turns double as a
golden for @diffworld/dataset's worldModelUserTurn. Writes test-data/dataset/sample.jsonl.
Run from the repository root:  python3 tools/golden/dataset_sample.py
"""
import json
import os
import random

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test-data', 'dataset', 'sample.jsonl')
DATASETS = ['coderforge', 'webshop', 'tau2bench', 'pandora']
rng = random.Random(5)


def grounding(env, action):
    parts = [
        '## ENVIRONMENT STATE', f'The environment is {env}.', 'Inventory: a key, a ☕ mug', '',
        '## TASK CONTEXT', f'The active action is: {action}', '',
        '## DOMAIN RULES', "- 'open X' works on containers.", '',
        '## STEERING DIRECTIVES', 'If uncertain, output "Nothing happens."', '',
        f"PREDICTION TARGET: The observation produced by the action '{action}'.",
    ]
    return '\n'.join(parts)


rows = []
for i in range(40):
    env = DATASETS[i % len(DATASETS)]
    history = [
        {'role': 'system', 'content': f'You are an agent in {env}. Respond with one action.'},
        {'role': 'user', 'content': f'Task {i}: find the 🔑 key. Température: {20 + i * 0.5}°'},
    ]
    for t in range(rng.randint(0, 6)):
        history.append({'role': 'assistant', 'content': f'go to room {t}'})
        history.append({'role': 'user', 'content': f'You arrive at room {t}. You see a "box" and {t * 1.0} coins.\nExits: north'})
    action = f'open box {i}'
    if i % 3 == 0:
        action_text = json.dumps([{'role': 'assistant', 'content': action}])
    else:
        action_text = action
    user = 'State: ' + json.dumps(history) + '\n\nAction: ' + action_text
    rows.append({'messages': [
        {'role': 'system', 'content': grounding(env, action)},
        {'role': 'user', 'content': user},
        {'role': 'assistant', 'content': f'You open the box {i}. It is empty.'},
    ], 'dataset': env})
rows.append(dict(rows[3]))  # one exact duplicate, for de-duplication

with open(OUT + '.tmp', 'w', encoding='utf-8') as f:
    for r in rows:
        f.write(json.dumps(r, ensure_ascii=False) + '\n')
os.replace(OUT + '.tmp', OUT)
print(f'wrote {len(rows)} rows to {os.path.normpath(OUT)}')
