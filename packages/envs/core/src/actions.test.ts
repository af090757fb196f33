import { describe, expect, it } from 'vitest';
import { extractActionLine, proseBeforeAction, stripThink } from './actions.js';

describe('action parsing', () => {
  it('strips every think block, non-greedy, and dangling tags', () => {
    expect(stripThink('<think>a</think>x<think>b\nc</think>y</think>')).toBe('xy');
  });

  it('takes the Action line, case-insensitive, else the first non-empty line', () => {
    expect(extractActionLine('<think>Action: no</think>I will.\naction :  go to desk 1  \n')).toBe('go to desk 1');
    expect(extractActionLine('\n\n  open drawer 2\nmore')).toBe('open drawer 2');
    expect(extractActionLine('<think>x</think>  \n')).toBeUndefined();
  });

  it('counts prose before the action line', () => {
    expect(proseBeforeAction('Action: look')).toBe(0);
    expect(proseBeforeAction('I should look around.\nAction: look')).toBe(21);
  });
});
