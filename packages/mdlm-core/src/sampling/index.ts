export { SamplingError, type SamplingIssueCode } from './errors.js';
export {
  applyRepetitionPenalty, argmax, checkTokenSampling, chooseToken, GREEDY, logSumExp, processLogits, softmax64, tokenLogProb,
  type ChooseOptions, type TokenChoice, type TokenSampling,
} from './token.js';
