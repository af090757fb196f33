// The models' own chat templates (test-data/chat-templates: Qwen3, Llama-3.2, Mistral-Nemo,
// LFM2.5) rendered here against transformers' apply_chat_template on the conversations of
// cases.json: the same text (tools, system messages, add_generation_prompt, enable_thinking,
// strftime_now on a frozen clock), the same raise_exception failures, and for templates with
// {% generation %} blocks the same assistant spans as return_assistant_tokens_mask. The renderings
// come from tools/golden/chat_templates.py; until that file exists the test skips with the reason,
// and fails under CI=true.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TokenizerError } from '../errors.js';
import { TEST_DATA } from '../testing.js';
import { ChatTemplate, type TemplateMessage } from './chat-template.js';
import { assistantSpans } from './encode.js';

const CI = process.env['CI'] === 'true' || process.env['CI'] === '1';
const DIR = `${TEST_DATA}chat-templates/`;
const GOLDEN = process.env['CHAT_TEMPLATE_GOLDEN'] ?? `${TEST_DATA}golden/chat-templates.json`;

interface Case {
  id: string;
  templates: string[];
  messages: TemplateMessage[];
  add_generation_prompt: boolean;
  tools?: boolean;
  kwargs?: Record<string, unknown>;
  mask?: boolean;
}
interface Golden {
  transformers_version: string;
  results: Record<string, { text?: string; error?: string; assistant_spans?: [number, number][] }>;
}

const templates = JSON.parse(readFileSync(`${DIR}templates.json`, 'utf8')) as Record<string, { file: string; special_tokens: Record<string, string> }>;
const spec = JSON.parse(readFileSync(`${DIR}cases.json`, 'utf8')) as { now: string; tools: unknown[]; cases: Case[] };
const now = () => new Date(spec.now); // an ISO time without a zone is local time, as Python's naive datetime
const load = (name: string) => new ChatTemplate(readFileSync(DIR + templates[name]!.file, 'utf8'), templates[name]!.special_tokens, `${name} template`);

/** UTF-16 offsets → code points (Python's string offsets). */
function toCodePoints(text: string, spans: [number, number][]): [number, number][] {
  const cp = (i: number) => [...text.slice(0, i)].length;
  return spans.map(([a, b]) => [cp(a), cp(b)]);
}

describe('chat templates: golden renderings by transformers', () => {
  const present = existsSync(GOLDEN);
  const golden = present ? (JSON.parse(readFileSync(GOLDEN, 'utf8')) as Golden) : undefined;
  for (const name of Object.keys(templates)) {
    for (const c of spec.cases.filter((x) => x.templates.includes(name))) {
      it(`${name}: ${c.id}`, (ctx) => {
        if (!golden) {
          const reason = `${GOLDEN} is missing — run \`python3 tools/golden/chat_templates.py --out test-data/golden/chat-templates.json\` on a host with transformers`;
          if (CI) throw new Error(reason);
          ctx.skip(reason);
          return;
        }
        const expected = golden.results[`${name}/${c.id}`];
        expect(expected, `no golden for ${name}/${c.id}`).toBeDefined();
        const template = load(name);
        const opts = { addGenerationPrompt: c.add_generation_prompt, ...(c.tools ? { tools: spec.tools } : {}), ...(c.kwargs ? { variables: c.kwargs } : {}), now };
        if (expected!.error !== undefined) {
          expect(() => template.render(c.messages, opts)).toThrow(TokenizerError);
          expect(() => template.render(c.messages, opts)).toThrow(expected!.error);
          return;
        }
        expect(template.render(c.messages, opts)).toBe(expected!.text);
        if (expected!.assistant_spans) {
          const { text, spans } = assistantSpans(template, c.messages, opts);
          expect(toCodePoints(text, spans)).toEqual(expected!.assistant_spans);
        }
      });
    }
  }
});
