export { noiseBatch, sampleMaskRatios, type NoiseOptions, type NoisedBatch } from './noise.js';
export { blockDiffusionAllowed, blockDiffusionMask, repeatedPositionTables } from './block-diffusion.js';
export { maskedDiffusionLoss, nextTokenLoss } from './loss.js';
