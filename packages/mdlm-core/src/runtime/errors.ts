// The runtime's one error class: a typed issue with a code, rendered into a message with a fix hint.
import type { ProviderName } from './providers.js';

export interface ProviderFailure {
  provider: ProviderName;
  reason: string;
}

export type RuntimeIssue =
  | { code: 'unknown_provider'; source: string; name: string }
  | { code: 'duplicate_provider'; source: string; name: string }
  | { code: 'empty_provider_list'; source: string }
  | { code: 'no_provider'; tried: readonly ProviderFailure[] }
  | { code: 'bad_feed'; input: string; reason: string }
  | { code: 'missing_input'; inputs: readonly string[]; expected: readonly string[] }
  | { code: 'unknown_input'; inputs: readonly string[]; expected: readonly string[] }
  | { code: 'device_tensor_disposed'; what: string }
  | { code: 'device_not_supported'; provider: ProviderName }
  | { code: 'bad_env'; variable: string; value: string; expected: string };

export type RuntimeIssueCode = RuntimeIssue['code'];

const KNOWN = 'cuda, webgpu, cpu';

/** What to install or do to make a provider work, one line each. */
export const INSTALL_HINTS: Readonly<Record<ProviderName, string>> = {
  cuda: 'install the CUDA provider with `node tools/install-cuda-provider.mjs` (needs the NVIDIA driver and the CUDA 13 ' + 'runtime libraries, cuBLAS and cuDNN, on LD_LIBRARY_PATH)',
  webgpu:
    'install a Vulkan driver: on Debian `apt-get install -t bookworm-backports mesa-vulkan-drivers libvulkan1` ' +
    "(Mesa ≥ 25, CPU lavapipe), or on NVIDIA hosts the driver's Vulkan ICD (export VK_DRIVER_FILES=…/nvidia_icd.json)",
  cpu: 'reinstall onnxruntime-node 1.29.0 (`npm ci` at the repository root)',
};

function render(issue: RuntimeIssue): string {
  switch (issue.code) {
    case 'unknown_provider':
      return `${issue.source}: unknown execution provider "${issue.name}" (known: ${KNOWN}). Example: ${issue.source}=webgpu,cpu`;
    case 'duplicate_provider':
      return `${issue.source}: execution provider "${issue.name}" is listed twice. Example: ${issue.source}=webgpu,cpu`;
    case 'empty_provider_list':
      return `${issue.source}: the execution provider list is empty. Name at least one of ${KNOWN}, e.g. ${issue.source}=cpu`;
    case 'no_provider':
      return [
        `no execution provider works (tried ${issue.tried.map((t) => t.provider).join(', ')}):`,
        ...issue.tried.map((t) => `  ${t.provider}: ${t.reason}\n    fix: ${INSTALL_HINTS[t.provider]}`),
        'Run `npx diffworld doctor` to see what initialises on this machine; DIFFWORLD_EP=cpu forces the CPU provider.',
      ].join('\n');
    case 'bad_feed':
      return `input "${issue.input}": ${issue.reason}`;
    case 'missing_input':
      return `missing input(s) ${issue.inputs.map((n) => `"${n}"`).join(', ')}; the model takes ${issue.expected.join(', ')}`;
    case 'unknown_input':
      return `unknown input(s) ${issue.inputs.map((n) => `"${n}"`).join(', ')}; the model takes ${issue.expected.join(', ')}`;
    case 'device_tensor_disposed':
      return `${issue.what}: this device tensor was disposed; keep it until its last use (or read it with toHost() first)`;
    case 'bad_env':
      return `${issue.variable}=${JSON.stringify(issue.value)}: expected ${issue.expected}`;
    case 'device_not_supported':
      return `provider ${issue.provider} has no device-resident tensors in onnxruntime-node; only webgpu does (use toHost/hostTensor instead)`;
  }
}

export class RuntimeError extends Error {
  override readonly name = 'RuntimeError';
  /** User-fixable input (a bad DIFFWORLD_EP, a bad feed): the CLI maps it to exit code 2. */
  readonly badInput: boolean;
  constructor(readonly issue: RuntimeIssue) {
    super(`[runtime] ${render(issue)}`);
    this.badInput = issue.code !== 'no_provider';
  }
}
