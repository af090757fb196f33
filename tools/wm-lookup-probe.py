# The lookup probe of issue 31: can a world model read a receptacle's contents off the grounded
# system prompt? From `diffworld env corpus alfworld … --per-step` rows, keeps the transitions that
# list a receptacle's contents (`go to R` / `open R`) where the scene's INITIAL OBJECT LOCATIONS say
# exactly that list, and writes them twice: system = the scene in the paper's layout
# (`- bread 2: on countertop 1`, the key after the value) and keyed by receptacle
# (`- countertop 1 (on): bread 2, bread 1, …`); user = the action; assistant = the engine's answer.
# Train the same model on each (`wm train --data …`) and compare `eval wm` exact match.
# Usage: python3 tools/wm-lookup-probe.py steps.jsonl out-paper.jsonl out-keyed.jsonl
import json, re, sys, random
src, out_paper, out_keyed = sys.argv[1:4]
fp, fk = open(out_paper, 'w'), open(out_keyed, 'w')
n = 0
for line in open(src):
    r = json.loads(line)
    m = r['messages']
    ref = m[-1]['content'].strip()
    mm = re.search(r'(?:On the|The) ([a-z]+ \d+)(?:, you see| is open\. In it, you see) (.*)\.$', ref)
    if not mm: continue
    rec = mm.group(1); listed = re.findall(r'([a-z]+ \d+)', mm.group(2))
    act = m[-2]['content'].rsplit('Action: ', 1)[-1].strip()
    if act not in (f'go to {rec}', f'open {rec}'): continue
    sysm = m[0]['content']
    scene = re.findall(r'^- ([a-z]+ \d+): (in|on) ([a-z]+ \d+)$', sysm, re.M)
    if [a for a, _, b in scene if b == rec] != listed: continue
    s0 = sysm.index('Task: '); s1 = sysm.index('\n\n## ', sysm.index('## INITIAL OBJECT LOCATIONS'))
    paper = sysm[s0:s1]
    head = paper[:paper.index('## INITIAL OBJECT LOCATIONS')]
    groups = {}
    for a, prep, b in scene: groups.setdefault(b, (prep, []))[1].append(a)
    keyed = head + '## OBJECTS BY RECEPTACLE\n' + '\n'.join(f'- {b} ({p}): {", ".join(xs)}' for b, (p, xs) in groups.items())
    for f, s in ((fp, paper), (fk, keyed)):
        f.write(json.dumps({'messages': [{'role': 'system', 'content': s}, {'role': 'user', 'content': f'Action: {act}'}, {'role': 'assistant', 'content': ref}]}) + '\n')
    n += 1
print(n, 'rows')
