// What plants with a genotype show, as ScienceWorld's PeaPlant, RandomGeneticsPlants and Flower write it.
import { describe, expect, it } from 'vitest';
import type { GeneTrait } from './layout.js';
import { flowerDescription, grownPlantTraits, seedName, shownValue } from './plant-traits.js';

const t = (trait: string, dom: string, rec: string, a: boolean, b: boolean): GeneTrait => ({ trait, values: [dom, rec], alleles: [a, b] });

describe('plant traits', () => {
  it('a trait shows its dominant value when either allele carries it', () => {
    expect(shownValue(t('seed shape', 'round', 'wrinkly', false, true))).toBe('round');
    expect(shownValue(t('seed shape', 'round', 'wrinkly', false, false))).toBe('wrinkly');
  });

  it('seeds show shape then colour, where the kind has them', () => {
    const pea = [
      t('plant height', 'tall', 'short', true, true),
      t('seed shape', 'round', 'wrinkly', false, false),
      t('seed color', 'green', 'orange', true, false),
      t('flower color', 'purple', 'white', false, false),
    ];
    expect(seedName('pea', pea)).toBe('wrinkly green pea seed');
    expect(seedName('unknown C', [t('plant height', 'short', 'tall', true, true), t('leaf shape', 'pointed', 'round', false, false)])).toBe('unknown C seed');
    expect(grownPlantTraits('pea', pea)).toBe(' with a tall height');
    expect(flowerDescription(pea)).toBe('a white flower');
  });

  it('grown unknown plants show height and leaves, flowers size and colour', () => {
    const c = [
      t('plant height', 'short', 'tall', false, false),
      t('leaf shape', 'pointed', 'round', true, false),
      t('flower size', 'large', 'small', true, true),
      t('flower color', 'orange', 'yellow', false, false),
    ];
    expect(grownPlantTraits('unknown C', c)).toBe(' with a tall height and pointed leaves');
    expect(flowerDescription(c)).toBe('a large yellow flower');
    const d = [t('seed shape', 'spherical', 'ovate', true, true), t('leaf size', 'medium', 'large', false, false)];
    expect(grownPlantTraits('unknown D', d)).toBe(' with large leaves');
    expect(grownPlantTraits('unknown E', [t('seed color', 'blue', 'brown', true, true)])).toBe('');
    expect(flowerDescription(undefined)).toBe('a flower');
  });
});
