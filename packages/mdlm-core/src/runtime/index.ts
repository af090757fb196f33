// Public API of the runtime: providers, sessions, host/device tensors, the MatMul benchmark.
export { RuntimeError, INSTALL_HINTS, type RuntimeIssue, type RuntimeIssueCode, type ProviderFailure } from './errors.js';
export {
  PROVIDERS,
  DEFAULT_PROVIDER_ORDER,
  PROVIDER_ENV,
  CUDA_PROVIDER_FILES,
  ProviderSelector,
  parseProviderList,
  providerOrder,
  providerSelector,
  selectProvider,
  probeProvider,
  ortLibraryDir,
  stderrLogger,
  type ProviderName,
  type ProviderChoice,
  type ProbeResult,
  type Probe,
  type Logger,
  type ParseResult,
} from './providers.js';
export { DeviceTensor, hostTensor, zeros, sizeOf, type HostTensor, type DataOf, type SessionValue } from './tensor.js';
export {
  Session,
  createSession,
  clearSessionCache,
  sessionCacheStats,
  modelHash,
  toHost,
  toDevice,
  type SessionOptions,
  type OutputPlacement,
  type Feeds,
  type Outputs,
} from './session.js';
export { benchmarkMatMul, type MatMulBenchOptions, type MatMulBenchResult } from './bench.js';
export { vulkanDevices, nvidiaGpus, parseVulkanSummary, ortVersion, type VulkanDevice } from './system.js';
