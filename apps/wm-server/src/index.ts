// @diffworld/wm-server: serves a world model over OpenAI chat completions and the paper's proxy
// route, with dynamic batching, limits, auth and Prometheus metrics.
export { startWmServer, SCHEDULING_MODES, type SchedulingMode, type WmServerOptions, type RunningWmServer } from './server.js';
export { ContinuousScheduler, type ContinuousSchedulerOptions, type Scheduler } from './continuous.js';
export { Batcher, QueueFullError, CancelledError, paramsKey, type BatcherOptions, type BatchEvent } from './batcher.js';
export {
  cutAtStopStrings,
  UNMASKING_STRATEGIES,
  type GenerationBackend,
  type ContinuousGeneration,
  type BackendRequest,
  type BackendResult,
  type GenerationParams,
  type ChatAnchor,
  type UnmaskingStrategyName,
} from './backend.js';
export { parseChatRequest, type ChatCompletionRequest, type ChatLimits } from './chat-request.js';
export { parseProxyRequest, PROXY_DEFAULTS, type ProxyRequest } from './proxy-request.js';
export { FieldError } from './validate.js';
export { ServerMetrics } from './metrics.js';
export { ScriptedBackend, scriptedResult, type ScriptedBackendOptions } from './testing.js';
export { GeneratorBackend, generateOptions, type GeneratorBackendOptions } from './generator-backend.js';
