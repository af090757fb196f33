export { noiseBatch, noiseSegments, sampleMaskRatios, type NoiseOptions, type NoisedBatch, type Segment } from './noise.js';
export { blockDiffusionAllowed, blockDiffusionMask, repeatedPositionTables } from './block-diffusion.js';
export { maskedDiffusionLoss, nextTokenLoss } from './loss.js';
