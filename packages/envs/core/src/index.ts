// env-core: the interfaces shared by every environment package, the episode record, action
// parsing helpers and the seeded RNG every engine uses.
export * from './types.js';
export { Rng, hashSeed } from './rng.js';
export { stripThink, extractActionLine, proseBeforeAction, trimEndChars, trimStartChars } from './actions.js';
export { episodeRecord, pairedDifference, parseEpisodeRecord, summarizeEpisodes, wilsonInterval, type PairedDifference } from './episode.js';
export type { EpisodeRecord, EpisodeSummary, RecordCheck } from './episode.js';
export { withStepLimit } from './step-limit.js';
export { requireActionString } from './action-type.js';
export { fuzzSuite, formatFuzzReport, fuzzMain } from './fuzz.js';
export type { FuzzSuite, FuzzOptions, FuzzReport, FuzzFailure, FuzzFailureKind } from './fuzz.js';
export { fuzzInput, mutate, NON_STRING_ACTIONS } from './fuzz-inputs.js';
export type { FuzzInput, FuzzInputKind, FuzzInputOptions } from './fuzz-inputs.js';
export { runServerLoad, serverLoadMain, formatServerLoadReport, summarize as summarizeLatencies } from './server-load.js';
export type { LoadProtocol, ServerLoadOptions, ServerLoadReport, LatencySummary } from './server-load.js';
export { startJsonServer, HttpError, RawJson, EpisodeStore, requireString, optionalString } from './http.js';
export { BodyTooLargeError, readBody, closeAfterAnswerIfUnread } from './http-body.js';
export type { JsonRequest, JsonReply, JsonHandler, JsonServerOptions, RunningServer } from './http.js';
export { EnvSuiteError, checkSplit, suiteByName, playExpertRecord, roundRobin, noImports, loadPromptSet, firstDifference, refuseServerExtras } from './suite.js';
export type { EnvSuite, AgentHarness, CorpusRequest, SimulatedEnvOptions, ServerStartOptions, SuitePrompts, PromptComparison } from './suite.js';
export { PROMPT_SET_FORMAT, PromptSetError, deriveTemplate, renderTemplate, templateSlots, parsePromptSet, readPromptSet, writePromptSet, promptSetOf, worldModelTemplate } from './prompts.js';
export { LocatedError, PaperRowError } from './located-error.js';
export { chatMessagesOf, systemPromptOf, extractPromptSet, comparePromptSet } from './prompt-rows.js';
export { sharedDataFiles, tempJsonlFile } from './testing.js';
export type { PromptRow } from './prompt-rows.js';
export type { PromptSet, PromptTemplate, TemplatePart, TemplateExample, TemplateProvenance, DerivedTemplate, PromptSlots, PromptExtraction } from './prompts.js';
