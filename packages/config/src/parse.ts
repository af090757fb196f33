// Reading settings through a zod schema: defaults, types and ranges are declared once in the
// schema; this module turns zod's issues into messages that name the key path the user wrote
// (`grpo.epsilom: unknown key, did you mean epsilon?`) and throws them as one ConfigError, which
// the CLI maps to exit status 2.
import { z } from 'zod';
import { closestName } from './suggest.js';

export interface ConfigIssue {
  /** Dotted key path from the root of the settings (`grpo.epsilon`, `seeds[1]`); '(root)' for the whole object. */
  path: string;
  message: string;
}

/** Bad settings: every problem found, each naming its key path. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  /** The CLI's marker for "the input is wrong" (exit 2). */
  readonly badInput = true;
  constructor(
    readonly where: string,
    readonly issues: readonly ConfigIssue[],
  ) {
    super(issues.length === 1 ? `${where}: ${line(issues[0]!)}` : `${where}: ${issues.length} problems\n${issues.map((i) => `  ${line(i)}`).join('\n')}`);
  }
}

const line = (i: ConfigIssue) => `${i.path}: ${i.message}`;

/** `a.b[2].c` from zod's path segments. */
export function keyPath(path: readonly PropertyKey[]): string {
  let s = '';
  for (const p of path) s += typeof p === 'number' ? `[${p}]` : s === '' ? String(p) : `.${String(p)}`;
  return s === '' ? '(root)' : s;
}

type AnySchema = z.core.$ZodType;

/** The schema that describes the value at `path`, looking through optional/default/pipe wrappers. */
export function schemaAt(schema: AnySchema, path: readonly PropertyKey[]): AnySchema | undefined {
  let s: AnySchema | undefined = unwrap(schema);
  for (const p of path) {
    if (!s) return undefined;
    const def = s._zod.def as { type: string; shape?: Record<string, AnySchema>; element?: AnySchema; valueType?: AnySchema; items?: AnySchema[] };
    if (def.type === 'object' && typeof p === 'string') s = def.shape?.[p];
    else if (def.type === 'array') s = def.element;
    else if (def.type === 'record') s = def.valueType;
    else if (def.type === 'tuple' && typeof p === 'number') s = def.items?.[p];
    else return undefined;
    s = s ? unwrap(s) : undefined;
  }
  return s;
}

function unwrap(s: AnySchema): AnySchema {
  for (;;) {
    const def = s._zod.def as { type: string; innerType?: AnySchema; in?: AnySchema };
    if ((def.type === 'optional' || def.type === 'default' || def.type === 'prefault' || def.type === 'nullable' || def.type === 'readonly') && def.innerType) s = def.innerType;
    else if (def.type === 'pipe' && def.in) s = def.in;
    else return s;
  }
}

/** The keys an object schema declares (for "did you mean" and "known: …"). */
export function knownKeys(schema: AnySchema, path: readonly PropertyKey[]): string[] {
  const s = schemaAt(schema, path);
  const def = s?._zod.def as { type: string; shape?: Record<string, unknown> } | undefined;
  return def?.type === 'object' && def.shape ? Object.keys(def.shape) : [];
}

const show = (v: unknown): string => {
  if (v === undefined) return 'nothing';
  try {
    const j = JSON.stringify(v);
    return j === undefined ? String(v) : j.length > 60 ? `${j.slice(0, 57)}...` : j;
  } catch {
    return String(v);
  }
};

const TYPE_NAMES: Readonly<Record<string, string>> = { int: 'integer', int32: 'integer', uint32: 'integer ≥ 0', nan: 'number' };
const article = (t: string) => {
  const name = TYPE_NAMES[t] ?? t;
  return /^[aeiou]/.test(name) ? `an ${name}` : `a ${name}`;
};

function describe(schema: AnySchema, issue: z.core.$ZodIssue): ConfigIssue[] {
  const at = (extra: PropertyKey[] = []) => keyPath([...issue.path, ...extra]);
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case 'unrecognized_keys': {
      const known = knownKeys(schema, issue.path);
      return issue.keys.map((k) => {
        const near = closestName(k, known);
        return { path: at([k]), message: near ? `unknown key, did you mean ${near}?` : `unknown key; known: ${known.join(', ')}` };
      });
    }
    case 'invalid_type':
      return [{ path: at(), message: input === undefined ? `required (${article(issue.expected)})` : `must be ${article(issue.expected)}, got ${show(input)}` }];
    case 'too_small':
    case 'too_big': {
      const bound = issue.code === 'too_small' ? issue.minimum : issue.maximum;
      const rel = issue.code === 'too_small' ? (issue.inclusive === false ? '>' : '≥') : issue.inclusive === false ? '<' : '≤';
      const what = issue.origin === 'array' || issue.origin === 'set' ? 'length' : issue.origin === 'string' ? 'length' : 'value';
      return [{ path: at(), message: `${what} must be ${rel} ${String(bound)}, got ${show(what === 'length' && Array.isArray(input) ? input.length : input)}` }];
    }
    case 'invalid_value':
      return [{ path: at(), message: `must be one of ${issue.values.map((v) => show(v)).join(', ')}, got ${show(input)}` }];
    case 'invalid_union': {
      // Say the first branch's problem when every branch failed on its own (a discriminated choice).
      const first = issue.errors[0]?.[0];
      return first ? describe(schema, { ...first, path: [...issue.path, ...first.path] } as z.core.$ZodIssue) : [{ path: at(), message: issue.message }];
    }
    default:
      return [{ path: at(), message: issue.message }];
  }
}

/** Every problem of `value` against `schema`, as key-path messages; empty when it parses. */
export function configIssues(schema: AnySchema, value: unknown): ConfigIssue[] {
  const r = z.safeParse(schema, value, { reportInput: true });
  return r.success ? [] : r.error.issues.flatMap((i) => describe(schema, i));
}

/**
 * Parses `value` (a parsed JSON object, overrides already applied) with `schema`: defaults filled,
 * types and ranges checked, unknown keys refused. Throws ConfigError naming each bad key path;
 * `where` names the source (a file path, "--config", "train config").
 */
export function parseConfig<S extends AnySchema>(schema: S, value: unknown, where: string): z.output<S> {
  const r = z.safeParse(schema, value, { reportInput: true });
  if (r.success) return r.data;
  throw new ConfigError(
    where,
    r.error.issues.flatMap((i) => describe(schema, i)),
  );
}
