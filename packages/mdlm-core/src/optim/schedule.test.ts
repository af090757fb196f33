import { describe, expect, it } from 'vitest';
import { constant, constantWithWarmup, cosineWithWarmup } from './schedule.js';

describe('schedules', () => {
  it('constant and warmup', () => {
    expect(constant(0.1)(7)).toBe(0.1);
    const s = constantWithWarmup(1, 4);
    expect([1, 2, 4, 5, 100].map(s)).toEqual([0.25, 0.5, 1, 1, 1]);
  });
  it('cosine with warmup reaches the peak, half-way value and floor', () => {
    const s = cosineWithWarmup({ lr: 1, warmup: 10, total: 110, minLr: 0.1 });
    expect(s(5)).toBe(0.5);
    expect(s(10)).toBe(1);
    expect(s(60)).toBeCloseTo(0.55, 12);
    expect(s(110)).toBeCloseTo(0.1, 12);
    expect(s(500)).toBeCloseTo(0.1, 12);
  });
  it('rejects bad arguments with the reason', () => {
    expect(() => cosineWithWarmup({ lr: 1, warmup: 10, total: 10 })).toThrow('total (10) must be an integer above warmup (10)');
    expect(() => constant(-1)).toThrow('lr must be a finite non-negative number');
  });
});
