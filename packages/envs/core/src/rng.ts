// The seeded PRNG lives in the dataset package (the bottom of the workspace); engines use it
// through env-core.
export { Rng, hashSeed } from '@diffworld/dataset';
