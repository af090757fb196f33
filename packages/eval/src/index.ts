// Public API of @diffworld/eval: world-model fidelity and diversity metrics computed the way the
// reference implementations compute them.
export { EvalError, type EvalIssueCode } from './errors.js';
export { pyStrip, pyRstrip, pySplit } from './pystr.js';
export { pyJsonLoads, tryPyJsonLoads, pyEquals, pyCompactSorted, type PyJson, type PyDict } from './pyjson.js';
export { normalizeText, stripTags, canonicalJson, extractOutputField, NORMALIZATIONS, type Normalization } from './normalize.js';
export { rougeLPltrdy, rougeLScore, rougeScoreTokenize, pltrdySentences, type RougeScore, type PltrdyOptions } from './rouge.js';
export {
  tokenize13a,
  corpusBleu,
  sentenceBleu,
  segmentStats,
  bleuFromStats,
  closestRefLength,
  type BleuOptions,
  type BleuResult,
  type BleuStats,
  type BleuTokenizer,
  type BleuSmoothing,
} from './bleu.js';
export { selfBleu, distinctN, type SelfBleuOptions, type SelfBleuResult, type DistinctResult, type DistinctVariant } from './diversity.js';
export { wordTokens, type WordTokenizer } from './tokens.js';
export { scoreRows, pairMetrics, getField, PREDICTION_KEYS, REFERENCE_KEYS, type ScoreOptions, type ScoreResult, type PairMetrics } from './score.js';
export { parseJsonl, readJsonl, formatJsonl } from './jsonl.js';
export { mauve, mauveFromFeatures, type MauveOptions, type MauveResult, type MauveSignature } from './mauve/mauve.js';
export { HashingFeaturizer, type Featurizer, type HashingFeaturizerOptions } from './mauve/featurizer.js';
export { pcaReduce, type PcaResult } from './mauve/pca.js';
export { kmeansOnce, bestRun, restartSeeds, type KMeansRun, type KMeansTask } from './mauve/kmeans.js';
export { divergenceCurve, mauveFromCurve, frontierIntegral, klMultinomial, linspace, autoBuckets, roundHalfEven, areaUnderCurve } from './mauve/curve.js';
export { symmetricEigen } from './mauve/eigen.js';
export { scoreFiles, joinReferences, datasetName, type ScoreFilesOptions, type ScoreFilesResult } from './files.js';
// Agent evaluation: policies, the episode runner against the real engines.
export { expertPolicy, randomPolicy, localPolicy, mapBatch, PolicyLimitError, type Policy, type PolicyAnswer, type PolicyContext, type PolicyRequest, type LocalPolicySpec } from './agent/policy.js';
export { remotePolicy, chatCompletionsEndpoint, RemotePolicyError, type RemotePolicyOptions } from './agent/remote.js';
// World models served over HTTP (wm-server, lmdeploy, vLLM, SGLang, the paper's proxy).
export { RemoteWorldModel, RemoteWorldModelError, samplingFields, PROXY_SAMPLING, type RemoteWorldModelOptions, type RemoteProtocol, type EndpointState } from './world-model/remote.js';
export { openWorldModel, isWorldModelUrl, type OpenWorldModelOptions } from './world-model/open.js';
export { playEpisodes, type PlayOptions } from './agent/episodes.js';
export { evaluateAgent, selectTasks, summarizeByTaskType, type EvaluateAgentOptions, type AgentEvaluation, type AgentSummary } from './agent/runner.js';
export { writeAgentEvaluation, OUTPUT_FILES } from './agent/output.js';
// Reports: self-contained HTML with inline SVG charts, and a Markdown summary.
export { renderHtmlReport, renderMarkdownReport, metricCharts, type ReportInput } from './report/report.js';
export { parseMetricsJsonl, readMetricsJsonl, type MetricsRun } from './report/metrics.js';
export { barChartCI, histogram, histogramBins, lineChart, SeriesColors, PALETTE, type CiBar, type Bin, type Series } from './report/charts.js';
export { escapeXml } from './report/html.js';
// Browser checks of rendered reports (their tests): a Chromium to drive, and each chart as a reader sees it.
export { findChromium, type ChromiumFound } from './report/find-chromium.js';
export { launchHeadlessChromium, requireChromium, type HeadlessChromium } from './report/headless-chromium.js';
export { chartsInPage, type ChartInPage } from './report/charts-in-page.js';
export { LocalWorldModel, worldModelMessages, checkpointLayout, generateOptionsOf, type LocalWorldModelOptions } from './world-model/local.js';
export { localCompleter, remoteCompleter, errorText, type ChatCompleter, type Completion, type CompletionRequest } from './world-model/completer.js';
export { generateOutputs, SKIPPED_OVERLONG, type GenerateOutputsOptions, type GenerateOutputsResult, type OutputRow } from './world-model/outputs.js';
export { evaluateWorldModel, outputsPath, SAMPLE_SEED_STRIDE, type EvaluateWorldModelOptions, type WorldModelEvaluation } from './world-model/evaluate.js';
