// One error class for the package. Every failure carries a typed issue with a code, the place
// (a file or a JSON path such as `model.merges[3]`) and a hint, rendered into the message in one place.

export type TokenizerIssue =
  | { code: 'invalid_json'; where: string; detail: string }
  | { code: 'invalid_field'; where: string; field: string; expected: string; got: string }
  | { code: 'unsupported'; where: string; field: string; detail: string }
  | { code: 'unknown_token'; where: string; token: string }
  | { code: 'bad_option'; where: string; option: string; detail: string }
  | { code: 'template'; where: string; detail: string }
  | { code: 'io'; where: string; detail: string };

export type TokenizerIssueCode = TokenizerIssue['code'];

const HINTS: Record<TokenizerIssueCode, string> = {
  invalid_json: 'check that the file is a complete tokenizer.json (JSON object).',
  invalid_field: 'fix the field in tokenizer.json, or re-export it with the Python `tokenizers` library.',
  unsupported: 'this package reads BPE / byte-level tokenizer.json files.',
  unknown_token: 'add the token to the tokenizer (special tokens) or pass its id explicitly.',
  bad_option: 'fix the option value.',
  template: 'check the chat template (tokenizer_config.json `chat_template` or chat_template.jinja) and the messages it was given.',
  io: 'check the path and permissions.',
};

export function renderIssue(issue: TokenizerIssue): string {
  switch (issue.code) {
    case 'invalid_json':
      return `${issue.where}: not valid JSON (${issue.detail})`;
    case 'invalid_field':
      return `${issue.where}: field \`${issue.field}\` must be ${issue.expected}, got ${issue.got}`;
    case 'unsupported':
      return `${issue.where}: field \`${issue.field}\`: ${issue.detail}`;
    case 'unknown_token':
      return `${issue.where}: token ${JSON.stringify(issue.token)} is not in the vocabulary`;
    case 'bad_option':
      return `${issue.where}: option \`${issue.option}\` ${issue.detail}`;
    case 'template':
      return `${issue.where}: ${issue.detail}`;
    case 'io':
      return `${issue.where}: ${issue.detail}`;
  }
}

/** Thrown by every public function of this package; `badInput` maps to CLI exit code 2. */
export class TokenizerError extends Error {
  override readonly name = 'TokenizerError';
  readonly badInput = true;
  constructor(readonly issues: readonly TokenizerIssue[]) {
    const first = issues[0];
    const head = first ? `[tokenizer] ${renderIssue(first)}` : '[tokenizer] unknown error';
    const more =
      issues.length > 1
        ? `\n${issues
            .slice(1)
            .map((i) => `  also: ${renderIssue(i)}`)
            .join('\n')}`
        : '';
    super(`${head}${more}\n  hint: ${first ? HINTS[first.code] : ''}`);
  }
}

export type Result<T> = { ok: true; value: T } | { ok: false; issues: TokenizerIssue[] };

/** A short description of a JSON value for error messages. */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing (the field is missing)';
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}
