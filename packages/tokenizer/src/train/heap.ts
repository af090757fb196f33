// A binary max-heap of candidate merges ordered like the `tokenizers` BPE trainer: higher count
// first, and on equal counts the pair with the smaller (left id, right id) first, which makes
// training deterministic and identical to Python's.

export interface MergeCandidate {
  count: number;
  key: number; // left * PAIR_BASE + right, so comparing keys compares (left, right)
}

function before(x: MergeCandidate, y: MergeCandidate): boolean {
  return x.count !== y.count ? x.count > y.count : x.key < y.key;
}

export class MergeHeap {
  private readonly items: MergeCandidate[] = [];

  get size(): number {
    return this.items.length;
  }

  push(item: MergeCandidate): void {
    const a = this.items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(a[i]!, a[parent]!)) break;
      [a[i], a[parent]] = [a[parent]!, a[i]!];
      i = parent;
    }
  }

  pop(): MergeCandidate | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length === 0 || last === undefined) return top;
    a[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = i;
      if (l < a.length && before(a[l]!, a[best]!)) best = l;
      if (r < a.length && before(a[r]!, a[best]!)) best = r;
      if (best === i) break;
      [a[i], a[best]] = [a[best]!, a[i]!];
      i = best;
    }
    return top;
  }
}
