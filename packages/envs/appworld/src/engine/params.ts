// Short constructors for parameter definitions, and the shared pagination / sorting parameters.
import type { Constraint, Json, ParamDef, ParamType } from './types.js';

interface Opts {
  desc?: string;
  default?: Json;
  constraints?: readonly Constraint[];
}

function make(type: ParamType, name: string, required: boolean, o: Opts = {}): ParamDef {
  const def: ParamDef = { name, type, required, description: o.desc ?? name.replace(/_/g, ' ') + '.' };
  if (!required) def.default = o.default ?? null;
  if (o.constraints) def.constraints = o.constraints;
  return def;
}

export const req = {
  str: (name: string, o?: Opts) => make('string', name, true, o),
  int: (name: string, o?: Opts) => make('integer', name, true, o),
  num: (name: string, o?: Opts) => make('number', name, true, o),
  bool: (name: string, o?: Opts) => make('boolean', name, true, o),
  list: (name: string, o?: Opts) => make('list[string]', name, true, o),
  numbers: (name: string, o?: Opts) => make('list[number]', name, true, o),
};
export const opt = {
  str: (name: string, o?: Opts) => make('string', name, false, o),
  int: (name: string, o?: Opts) => make('integer', name, false, o),
  num: (name: string, o?: Opts) => make('number', name, false, o),
  bool: (name: string, o?: Opts) => make('boolean', name, false, o),
  list: (name: string, o?: Opts) => make('list[string]', name, false, o),
  numbers: (name: string, o?: Opts) => make('list[number]', name, false, o),
  any: (name: string, o?: Opts) => make('number | integer | string', name, false, o),
};

/** The access token parameter, for APIs that list it somewhere other than last. */
export const ACCESS_TOKEN: ParamDef = { name: 'access_token', type: 'string', required: true, description: 'Access token obtained from the login API.' };

export const EMAIL = [{ kind: 'email' }] as const;

export const PAGE_LIMIT_DEFAULT = 5;
export const PAGE_LIMIT_MAX = 20;

/** page_index (≥0, default 0) and page_limit (1..20, default 5), AppWorld's defaults. */
export const PAGING: readonly ParamDef[] = [
  opt.int('page_index', { desc: 'The index of the page to return.', default: 0, constraints: [{ kind: 'min', value: 0 }] }),
  opt.int('page_limit', {
    desc: 'The maximum number of results to return per page.',
    default: PAGE_LIMIT_DEFAULT,
    constraints: [
      { kind: 'min', value: 1 },
      { kind: 'max', value: PAGE_LIMIT_MAX },
    ],
  }),
];

/** page_limit without the 20 cap, as a few AppWorld listings have it (bounded by its 64-bit int: 9.223372036854776e+18). */
export const PAGE_LIMIT_UNCAPPED: ParamDef = {
  ...PAGING[1]!,
  constraints: [
    { kind: 'min', value: 1 },
    { kind: 'max', value: 2 ** 63 }, // 9223372036854775807 as a float, what the docs print
  ],
};

export function sortBy(defaultSort: string | null): ParamDef {
  return opt.str('sort_by', { desc: 'The attribute to sort the results by, prefixed with + (ascending) or - (descending).', default: defaultSort });
}

export const DATE_RANGE: readonly ParamDef[] = [
  opt.str('min_created_at', { desc: 'Include results created on or after this date (YYYY-MM-DD).', default: '1500-01-01' }),
  opt.str('max_created_at', { desc: 'Include results created on or before this date (YYYY-MM-DD).', default: '3000-01-01' }),
];
