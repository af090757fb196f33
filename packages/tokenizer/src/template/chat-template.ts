// A model's own chat template (Jinja, from chat_template.jinja or tokenizer_config.json's
// `chat_template`), rendered with @huggingface/jinja the way transformers' apply_chat_template renders
// it: trim_blocks and lstrip_blocks, the variables messages / tools / documents /
// add_generation_prompt, the tokenizer's special tokens (bos_token, eos_token, …) and any extra
// keyword (enable_thinking, date_string), and the globals raise_exception and strftime_now.
// `{% generation %}` blocks are tracked as transformers' AssistantTracker does, for loss masks.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Environment, Interpreter, Template } from '@huggingface/jinja';
import { TokenizerError } from '../errors.js';
import { strftime } from './strftime.js';

/** A message as chat templates read it: role and content, plus tool_calls, reasoning_content, name… */
export interface TemplateMessage {
  role: string;
  content?: unknown;
  [key: string]: unknown;
}

export interface RenderOptions {
  /** Append the header of the turn the model writes next (apply_chat_template's add_generation_prompt). */
  addGenerationPrompt?: boolean;
  /** Tool definitions (JSON schemas, as `tools=` takes them). */
  tools?: readonly unknown[];
  /** Retrieval documents (`documents=`). */
  documents?: readonly unknown[];
  /** Extra template variables, as apply_chat_template's keyword arguments (enable_thinking, date_string…). */
  variables?: Readonly<Record<string, unknown>>;
  /** The clock strftime_now reads (default: now). */
  now?: () => Date;
}

export interface RenderedChat {
  text: string;
  /** [start, end) UTF-16 offsets of each `{% generation %}` block's output, in order. */
  generationSpans: [number, number][];
}

/** The tokenizer's special tokens a template sees, by their names in tokenizer_config.json. */
export type SpecialTokenMap = Readonly<Record<string, string | readonly string[]>>;

const SPECIAL_TOKEN_KEYS = ['bos_token', 'eos_token', 'unk_token', 'sep_token', 'pad_token', 'cls_token', 'mask_token'] as const;

// Private-use characters emitted where generation blocks open and close (never in model text that
// passes the check in render()).
const GEN_OPEN = '\uE000';
const GEN_CLOSE = '\uE001';

/** Rewrites `{% generation %}…{% endgeneration %}` into blocks that emit markers, keeping their whitespace control. */
function trackGeneration(source: string): string {
  return source
    .replace(/{%(-?)\s*generation\s*(-?)%}/g, (_, l: string, r: string) => `{%${l} if true %}{{ "${GEN_OPEN}" }}{% if true ${r}%}`)
    .replace(/{%(-?)\s*endgeneration\s*(-?)%}/g, (_, l: string, r: string) => `{%${l} endif %}{{ "${GEN_CLOSE}" }}{% endif ${r}%}`);
}

/** A token entry of tokenizer_config.json: a string, or an AddedToken object {content, …}. */
function tokenContent(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && typeof (v as { content?: unknown }).content === 'string') return (v as { content: string }).content;
  return undefined;
}

/** The special tokens of a tokenizer_config.json (or special_tokens_map.json) object. */
export function specialTokensOf(config: Readonly<Record<string, unknown>>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const k of SPECIAL_TOKEN_KEYS) {
    const c = tokenContent(config[k]);
    if (c !== undefined) out[k] = c;
  }
  const extra = config['additional_special_tokens'];
  if (Array.isArray(extra)) out['additional_special_tokens'] = extra.map(tokenContent).filter((x): x is string => x !== undefined);
  return out;
}

export class ChatTemplate {
  private readonly compiled: Template;
  readonly hasGenerationBlocks: boolean;

  /**
   * @param source the Jinja template
   * @param specialTokens bos_token, eos_token… as the template sees them
   * @param where names the template in errors (a file and key)
   */
  constructor(
    readonly source: string,
    readonly specialTokens: SpecialTokenMap = {},
    readonly where = 'chat template',
  ) {
    this.hasGenerationBlocks = /{%-?\s*generation\s*-?%}/.test(source);
    try {
      this.compiled = new Template(trackGeneration(source));
    } catch (e) {
      throw new TokenizerError([{ code: 'template', where, detail: `the template does not parse: ${(e as Error).message}` }]);
    }
  }

  /**
   * The template of a model directory: chat_template.jinja, else tokenizer_config.json's
   * `chat_template` (a string, or a list of named templates: `name`, default "default"). Undefined
   * when the directory has none.
   */
  static fromDirectory(dir: string, name = 'default'): ChatTemplate | undefined {
    const configPath = join(dir, 'tokenizer_config.json');
    const config = existsSync(configPath) ? readJsonObject(configPath) : {};
    const mapPath = join(dir, 'special_tokens_map.json');
    const specials = { ...(existsSync(mapPath) ? specialTokensOf(readJsonObject(mapPath)) : {}), ...specialTokensOf(config) };
    const jinjaPath = join(dir, 'chat_template.jinja');
    if (existsSync(jinjaPath)) return new ChatTemplate(readFileSync(jinjaPath, 'utf8'), specials, jinjaPath);
    const t = config['chat_template'];
    if (t === undefined || t === null) return undefined;
    if (typeof t === 'string') return new ChatTemplate(t, specials, `${configPath}: chat_template`);
    if (Array.isArray(t)) {
      const found = t.find((x) => (x as { name?: unknown })?.name === name) as { template?: unknown } | undefined;
      if (!found || typeof found.template !== 'string') {
        const names = t.map((x) => JSON.stringify((x as { name?: unknown })?.name)).join(', ');
        throw new TokenizerError([{ code: 'template', where: `${configPath}: chat_template`, detail: `has no template named "${name}" (it has ${names})` }]);
      }
      return new ChatTemplate(found.template, specials, `${configPath}: chat_template[name=${name}]`);
    }
    throw new TokenizerError([{ code: 'invalid_field', where: configPath, field: 'chat_template', expected: 'a string or a list of {name, template}', got: typeof t }]);
  }

  /** The chat as text, as apply_chat_template(messages, tokenize=False, …) returns it. */
  render(messages: readonly TemplateMessage[], opts: RenderOptions = {}): string {
    return this.renderTracked(messages, opts).text;
  }

  /** The text and where each `{% generation %}` block's output lies in it. */
  renderTracked(messages: readonly TemplateMessage[], opts: RenderOptions = {}): RenderedChat {
    if (!Array.isArray(messages)) throw new TokenizerError([{ code: 'bad_option', where: this.where, option: 'messages', detail: 'must be a list of {role, content} messages' }]);
    messages.forEach((m, i) => {
      if (!m || typeof m !== 'object' || typeof m.role !== 'string')
        throw new TokenizerError([{ code: 'bad_option', where: this.where, option: `messages[${i}]`, detail: 'must be an object with a string role' }]);
    });
    const inputs = JSON.stringify([messages, opts.tools ?? null, opts.documents ?? null, opts.variables ?? null]);
    if (inputs.includes(GEN_OPEN) || inputs.includes(GEN_CLOSE)) {
      throw new TokenizerError([{ code: 'bad_option', where: this.where, option: 'messages', detail: 'contain the private-use characters U+E000/U+E001, which the renderer reserves' }]);
    }
    const clock = opts.now ?? (() => new Date());
    let raw: string;
    try {
      // Template.render would declare its own strftime_now (Intl month names, no clock to set) and
      // refuse a second declaration: the environment is built here with transformers' globals.
      const env = new Environment();
      const variables: Record<string, unknown> = {
        true: true,
        false: false,
        none: null,
        True: true,
        False: false,
        None: null,
        range: pythonRange,
        raise_exception: (message: unknown) => {
          throw new TemplateRaised(String(message));
        },
        strftime_now: (format: unknown) => strftime(clock(), String(format)),
        ...this.specialTokens,
        ...(opts.variables ?? {}),
        messages,
        ...(opts.tools ? { tools: opts.tools } : {}),
        ...(opts.documents ? { documents: opts.documents } : {}),
        add_generation_prompt: opts.addGenerationPrompt ?? false,
      };
      for (const [k, v] of Object.entries(variables)) env.set(k, v);
      raw = String(new Interpreter(env).run(this.compiled.parsed).value);
    } catch (e) {
      const detail = e instanceof TemplateRaised ? `the template raised: ${e.message}` : `rendering failed: ${(e as Error).message}`;
      throw new TokenizerError([{ code: 'template', where: this.where, detail }]);
    }
    // Markers out, their positions kept: nested blocks are flattened as transformers' tracker does.
    let text = '';
    const spans: [number, number][] = [];
    let open = -1;
    let depth = 0;
    for (const ch of raw) {
      if (ch === GEN_OPEN) {
        if (depth++ === 0) open = text.length;
      } else if (ch === GEN_CLOSE) {
        if (--depth === 0) spans.push([open, text.length]);
      } else text += ch;
    }
    return { text, generationSpans: spans };
  }
}

class TemplateRaised extends Error {}

/** Python's range(stop) / range(start, stop[, step]). */
function pythonRange(...args: unknown[]): number[] {
  const [start, stop, step] = args.length === 1 ? [0, Number(args[0]), 1] : [Number(args[0]), Number(args[1]), args[2] === undefined ? 1 : Number(args[2])];
  if (step === 0) throw new TemplateRaised('range() arg 3 must not be zero');
  const out: number[] = [];
  for (let i = start; step > 0 ? i < stop : i > stop; i += step) out.push(i);
  return out;
}

function readJsonObject(path: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new TokenizerError([{ code: 'invalid_json', where: path, detail: (e as Error).message }]);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new TokenizerError([{ code: 'invalid_json', where: path, detail: 'not a JSON object' }]);
  return v as Record<string, unknown>;
}
