// What a plant with a known genotype shows, as ScienceWorld's plants write it: a seed its seed shape
// and colour ("round green pea seed", "square blue unknown E seed"), a grown pea plant its height
// ("with a tall height"), a grown unknown plant its height and leaves ("with a short height and
// large leaves"), a flower its size and colour ("a small flower"; "a flower" without genes).
import type { GeneTrait } from './layout.js';

/** The value a trait shows: the dominant one (first) when either allele carries it. */
export const shownValue = (t: GeneTrait): string => t.values[t.alleles[0] || t.alleles[1] ? 0 : 1];

const valuesOf = (traits: readonly GeneTrait[], names: readonly string[]): string[] =>
  names.flatMap((n) => {
    const t = traits.find((x) => x.trait === n);
    return t ? [shownValue(t)] : [];
  });

export function seedName(species: string, traits: readonly GeneTrait[]): string {
  return [...valuesOf(traits, ['seed shape', 'seed color']), `${species} seed`].join(' ');
}

/** What an adult or reproducing plant's description adds after "in the … stage". */
export function grownPlantTraits(species: string, traits: readonly GeneTrait[]): string {
  const [height] = valuesOf(traits, ['plant height']);
  if (species === 'pea') return height ? ` with a ${height} height` : '';
  const leaves = valuesOf(traits, ['leaf size', 'leaf shape']);
  if (!height && leaves.length === 0) return '';
  const parts = [...(height ? [`a ${height} height`] : []), ...(leaves.length ? [`${leaves.join(' ')} leaves`] : [])];
  return ` with ${parts.join(' and ')}`;
}

export function flowerDescription(traits: readonly GeneTrait[] | undefined): string {
  const features = traits ? valuesOf(traits, ['flower size', 'flower color']) : [];
  return ['a', ...features, 'flower'].join(' ');
}
