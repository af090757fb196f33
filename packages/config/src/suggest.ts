// "Did you mean": the nearest known name to a mistyped one, by edit distance.

/** Levenshtein distance (insert, delete, substitute; each costs 1). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * The known name closest to `typed` (case-insensitive), or undefined when none is close: a name
 * within a third of the typed length (at least 2 edits), or the one name that the typed word begins
 * (`anchors` → `anchorTokens`, at least 4 letters typed).
 */
export function closestName(typed: string, known: readonly string[]): string | undefined {
  const t = typed.toLowerCase();
  const extending = known.filter((k) => t.length >= 4 && k.toLowerCase().startsWith(t.replace(/s$/, '')));
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of known) {
    const d = editDistance(t, k.toLowerCase());
    if (d < bestD || (d === bestD && best !== undefined && k < best)) {
      best = k;
      bestD = d;
    }
  }
  if (best !== undefined && bestD <= Math.max(2, Math.ceil(typed.length / 3))) return best;
  return extending.length === 1 ? extending[0] : undefined;
}
