// The chat-template layer on its own: loading from model directories, transformers' globals, errors,
// and loss masks from {% generation %} blocks and from rendered prefixes (the two must agree).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TokenizerError } from '../errors.js';
import { META, TEST_DATA, sentencepieceJson } from '../testing.js';
import { Tokenizer } from '../tokenizer.js';
import { ChatTemplate, type TemplateMessage } from './chat-template.js';
import { assistantSpans, encodeWithChatTemplate } from './encode.js';
import { strftime } from './strftime.js';

const DIR = `${TEST_DATA}chat-templates/`;
const source = (name: string) => readFileSync(`${DIR}${name}.jinja`, 'utf8');
const tok = Tokenizer.load(`${TEST_DATA}wm/tokenizer.json`); // byte-level, with <|im_start|> / <|im_end|>
const lfm2 = new ChatTemplate(source('lfm2'), { bos_token: '<|startoftext|>', eos_token: '<|im_end|>' }, 'lfm2');
const qwen3 = new ChatTemplate(source('qwen3'), { eos_token: '<|im_end|>' }, 'qwen3');
const llama3 = new ChatTemplate(source('llama3'), { bos_token: '<|begin_of_text|>', eos_token: '<|eot_id|>' }, 'llama3');

const chat: TemplateMessage[] = [
  { role: 'system', content: 'You are in a kitchen.' },
  { role: 'user', content: 'open the fridge' },
  { role: 'assistant', content: 'The fridge is open. In it you see an apple.' },
  { role: 'user', content: 'take apple' },
  { role: 'assistant', content: 'You pick up the apple.' },
];

describe('ChatTemplate', () => {
  it('loads chat_template.jinja first, else tokenizer_config.json (string or named list), with its special tokens', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tpl-'));
    writeFileSync(
      join(dir, 'tokenizer_config.json'),
      JSON.stringify({ bos_token: { content: '<s>', __type: 'AddedToken' }, eos_token: '</s>', chat_template: '{{ bos_token }}{{ messages[0].content }}{{ eos_token }}' }),
    );
    expect(ChatTemplate.fromDirectory(dir)!.render([{ role: 'user', content: 'hi' }])).toBe('<s>hi</s>');
    writeFileSync(
      join(dir, 'tokenizer_config.json'),
      JSON.stringify({
        eos_token: '</s>',
        chat_template: [
          { name: 'default', template: 'D' },
          { name: 'tool_use', template: 'T' },
        ],
      }),
    );
    expect(ChatTemplate.fromDirectory(dir)!.render([])).toBe('D');
    expect(ChatTemplate.fromDirectory(dir, 'tool_use')!.render([])).toBe('T');
    expect(() => ChatTemplate.fromDirectory(dir, 'rag')).toThrow('has no template named "rag"');
    writeFileSync(join(dir, 'chat_template.jinja'), 'J{{ eos_token }}\n');
    expect(ChatTemplate.fromDirectory(dir)!.render([])).toBe('J</s>'); // one trailing newline dropped, as Jinja does
    expect(ChatTemplate.fromDirectory(mkdtempSync(join(tmpdir(), 'tpl-')))).toBeUndefined();
  });

  it('raise_exception and broken templates are TokenizerErrors naming the template', () => {
    const mistral = new ChatTemplate(source('mistral'), { bos_token: '<s>', eos_token: '</s>' }, 'mistral');
    expect(() => mistral.render([{ role: 'assistant', content: 'x' }])).toThrow(/mistral: the template raised: After the optional system message, conversation roles must alternate/);
    expect(() => new ChatTemplate('{% for m in messages %}', {}, 'broken.jinja')).toThrow(TokenizerError);
    expect(() => new ChatTemplate('{% for m in messages %}', {}, 'broken.jinja')).toThrow('broken.jinja: the template does not parse');
    expect(() => qwen3.render([{ content: 'x' } as unknown as TemplateMessage])).toThrow('messages[0]');
  });

  it('strftime_now reads the clock given, formatted as Python’s C-locale strftime', () => {
    const now = () => new Date(2024, 6, 5, 9, 3, 7);
    expect(llama3.render([{ role: 'user', content: 'q' }], { now })).toContain('Today Date: 05 Jul 2024\n');
    expect(llama3.render([{ role: 'user', content: 'q' }], { now, variables: { date_string: '26 Jul 2024' } })).toContain('Today Date: 26 Jul 2024\n');
    const d = new Date(2026, 0, 9, 21, 4, 5);
    expect(strftime(d, '%Y-%m-%d %H:%M:%S|%-d %B|%a %A %b|%I %p|%j|%y|%e|%%|%Q')).toBe('2026-01-09 21:04:05|9 January|Fri Friday Jan|09 PM|009|26| 9|%|%Q');
  });
});

describe('loss masks from the template', () => {
  it('{% generation %} spans equal the spans found by rendering prefixes (LFM2.5 with and without its tags)', () => {
    const tracked = assistantSpans(lfm2, chat);
    expect(tracked.spans).toHaveLength(2);
    const untagged = new ChatTemplate(source('lfm2').replace(/{%-?\s*(end)?generation\s*-?%}/g, ''), lfm2.specialTokens, 'lfm2 without tags');
    expect(untagged.hasGenerationBlocks).toBe(false);
    const diffed = assistantSpans(untagged, chat);
    expect(diffed).toEqual(tracked);
    expect(tracked.spans.map(([a, b]) => tracked.text.slice(a, b))).toEqual(['The fridge is open. In it you see an apple.<|im_end|>\n', 'You pick up the apple.<|im_end|>\n']);
  });

  it('token masks cover exactly the assistant turns (content and end-of-turn token)', () => {
    const e = encodeWithChatTemplate(tok, lfm2, chat);
    expect(e.ids).toEqual(tok.encodeIds(e.text, { addSpecialTokens: false }));
    const trained = e.ids.filter((_, i) => e.lossMask[i] === 1);
    expect(tok.decode(trained)).toBe('The fridge is open. In it you see an apple.<|im_end|>\nYou pick up the apple.<|im_end|>\n');
    const last = encodeWithChatTemplate(tok, lfm2, chat, { lossOn: 'last' });
    expect(tok.decode(last.ids.filter((_, i) => last.lossMask[i] === 1))).toBe('You pick up the apple.<|im_end|>\n');
  });

  it('Qwen3 (no generation tags, earlier think blocks dropped): every turn is refused by name, the last one works', () => {
    expect(() => assistantSpans(qwen3, chat)).toThrow(/`messages\[2\]`: the template renders this assistant turn differently/);
    const { text, spans } = assistantSpans(qwen3, chat, { lossOn: 'last' });
    expect(spans.map(([a, b]) => text.slice(a, b))).toEqual(['<think>\n\n</think>\n\nYou pick up the apple.<|im_end|>\n']);
  });

  it('Mistral-shaped tokenizers without offsets: masks by pieces (Llama-2 normalizer) and by decoded prefixes (Metaspace "first")', () => {
    const mistral = new ChatTemplate(source('mistral'), { bos_token: '<s>', eos_token: '</s>' }, 'mistral');
    const turns: TemplateMessage[] = [
      { role: 'user', content: 'What is 2+2?' },
      { role: 'assistant', content: 'It is 4.' },
      { role: 'user', content: 'And 3+3?' },
      { role: 'assistant', content: 'It is 6.' },
    ];
    const controls = ['[INST]', '[/INST]'];
    const normalizer = {
      type: 'Sequence',
      normalizers: [
        { type: 'Prepend', prepend: META },
        { type: 'Replace', pattern: { String: ' ' }, content: META },
      ],
    };
    const decoder = {
      type: 'Sequence',
      decoders: [{ type: 'Replace', pattern: { String: META }, content: ' ' }, { type: 'ByteFallback' }, { type: 'Fuse' }, { type: 'Strip', content: ' ', start: 1, stop: 0 }],
    };
    const metaspace = { type: 'Metaspace', replacement: META, prepend_scheme: 'first', split: false };
    const v1 = Tokenizer.fromJson(sentencepieceJson({ normalizer, decoder, controls }));
    const v3 = Tokenizer.fromJson(sentencepieceJson({ preTokenizer: metaspace, decoder: metaspace, controls }));
    for (const tok of [v1, v3]) {
      expect(tok.encode('x').offsets).toBeNull(); // not byte-level: no offsets to map spans with
      const e = encodeWithChatTemplate(tok, mistral, turns);
      expect(e.spans.map(([a, b]) => e.text.slice(a, b))).toEqual(['It is 4.</s>', 'It is 6.</s>']);
      const trained = e.ids.map((id, i) => (e.lossMask[i] ? tok.idToToken(id) : '|')).join('');
      expect(trained.split('|').filter(Boolean)).toEqual(
        tok === v1 ? [`${META}It${META}is${META}4.</s>`, `${META}It${META}is${META}6.</s>`] : [`It${META}is${META}4.</s>`, `It${META}is${META}6.</s>`],
      );
    }
  });

  it('Llama-3 (prefix-stable): each assistant turn through <|eot_id|>', () => {
    const { text, spans } = assistantSpans(llama3, chat, { variables: { date_string: '26 Jul 2024' } });
    expect(spans.map(([a, b]) => text.slice(a, b))).toEqual(['The fridge is open. In it you see an apple.<|eot_id|>', 'You pick up the apple.<|eot_id|>']);
  });
});
