// amazon's shared parameter options: quantities, ratings, non-empty strings.

export const QUANTITY_1 = { default: 1, constraints: [{ kind: 'min', value: 1 }] } as const;
export const RATING = {
  constraints: [
    { kind: 'min', value: 1 },
    { kind: 'max', value: 5 },
  ],
} as const;
export const RATING_0_5 = (d: number) =>
  ({
    default: d,
    constraints: [
      { kind: 'min', value: 0 },
      { kind: 'max', value: 5 },
    ],
  }) as const;
export const NON_EMPTY = { constraints: [{ kind: 'minLength', value: 1 }] } as const;
