// "Did you mean": the commands nearest to a mistyped word, by edit distance.
import { editDistance } from '@diffworld/config';

/**
 * The commands (full strings such as "data validate") nearest to the words typed, at most `limit`.
 * The first typed word is aligned with each word of a command and the typed words after it with the
 * command's words after that one, so `dat validat` finds "data validate" and `validate x.jsonl` finds
 * it too. A typed word that a command word starts with counts as exact. Far candidates are dropped.
 */
export function nearest(typed: readonly string[], candidates: readonly string[], limit = 3): string[] {
  const words = typed.map((w) => w.toLowerCase());
  if (words.length === 0) return [];
  const distance = (w: string, part: string) => (w.length >= 2 && part.startsWith(w) ? 0 : editDistance(w, part));
  const scored = candidates.map((c) => {
    const parts = c.split(' ');
    let best = Infinity;
    for (let j = 0; j < parts.length; j++) {
      let d = 0;
      let aligned = 0;
      for (let k = 0; k < words.length && j + k < parts.length; k++, aligned++) d += distance(words[k]!, parts[j + k]!);
      const cutoff = Math.max(2, Math.ceil(words[0]!.length / 3)) * aligned;
      if (d <= cutoff) best = Math.min(best, d);
    }
    return { c, d: best };
  });
  return scored
    .filter((x) => Number.isFinite(x.d))
    .sort((x, y) => x.d - y.d || x.c.localeCompare(y.c))
    .slice(0, limit)
    .map((x) => x.c);
}
