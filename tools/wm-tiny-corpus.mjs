#!/usr/bin/env node
// Makes the compact world-model corpus behind `nx run cli:train-wm` (test-data/wm/): rows of
// `diffworld env corpus` cut down so a tiny model trains on a 2-core CPU in minutes. The system
// prompt keeps only the lines of the scene sections (receptacles, where each object starts) that
// name something the action names; the user turn keeps only the action (so state changes made
// earlier in the episode are not visible: a demonstration corpus, not a faithful one); the
// assistant turn (the next observation) is unchanged. Full rows (grounding prompt + whole history) are what the
// `gpu` configuration trains on.
//   node tools/wm-tiny-corpus.mjs IN.jsonl OUT.jsonl
import { readFileSync, writeFileSync } from 'node:fs';

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error('usage: node tools/wm-tiny-corpus.mjs IN.jsonl OUT.jsonl');
  process.exit(2);
}
const section = (text, name) => {
  const start = text.indexOf(`## ${name}\n`);
  if (start < 0) return '';
  const rest = text.slice(start);
  const end = rest.indexOf('\n\n## ', 1);
  return end < 0 ? rest : rest.slice(0, end);
};
/** The scene lines that mention an entity the action names ("cabinet 12", "mug 1"). */
const relevant = (system, action) => {
  const names = [...action.matchAll(/([a-z]+) (\d+)/g)].map((m) => m[0]);
  const keep = (body) => body.split('\n').filter((l) => l.startsWith('## ') || names.some((n) => new RegExp(`\\b${n}\\b`).test(l)));
  return [...keep(section(system, 'INITIAL SCENE')), '', ...keep(section(system, 'INITIAL OBJECT LOCATIONS'))].join('\n');
};
const out = [];
for (const line of readFileSync(input, 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const { messages } = JSON.parse(line);
  const [system, user, assistant] = messages;
  const action = user.content.slice(user.content.lastIndexOf('\n\nAction: ') + 10);
  out.push({
    messages: [
      { role: 'system', content: relevant(system.content, action) },
      { role: 'user', content: `Action: ${action}` },
      { role: 'assistant', content: assistant.content },
    ],
  });
}
writeFileSync(output, out.map((r) => JSON.stringify(r)).join('\n') + '\n');
console.error(`${out.length} rows → ${output}`);
