import { describe, expect, it } from 'vitest';
import { runCli } from '../testing.js';
import type { DoctorReport } from './doctor.js';

const CI = process.env['CI'] === 'true' || process.env['CI'] === '1';

const run = runCli;

describe('diffworld doctor', () => {
  it('--json reports versions, every provider probed, and a benchmark row per working provider and size', async () => {
    const r = await run('doctor', '--json', '--sizes', '16,32', '--seconds', '0.01');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as DoctorReport;
    expect(report.node).toBe(process.version);
    expect(report.onnxruntime).toBe('1.29.0');
    expect(report.providers.map((p) => p.provider)).toEqual(['cuda', 'webgpu', 'cpu']);
    for (const p of report.providers) {
      if (p.ok) expect(p.initMs).toBeGreaterThanOrEqual(0);
      else expect(p.reason && p.fix).toBeTruthy();
    }
    const cpu = report.providers.find((p) => p.provider === 'cpu')!;
    expect(cpu.ok).toBe(true);
    if (CI) expect(report.providers.find((p) => p.provider === 'webgpu')).toMatchObject({ ok: true });
    const working = report.providers.filter((p) => p.ok).map((p) => p.provider);
    expect(report.benchmarks.map((b) => `${b.provider}:${b.n}`)).toEqual(working.flatMap((p) => [`${p}:16`, `${p}:32`]));
    for (const b of report.benchmarks) expect(b.gflops).toBeGreaterThan(0);
    expect(report.selected).toBe(working[0]);
    // The training path of the selected provider: on the CUDA provider the IO-bound step when koffi
    // reaches ORT's C API (it does wherever onnxruntime-node installed), elsewhere a run per step.
    expect(report.training?.path).toBe(report.selected === 'cuda' ? 'io-binding+cuda-graph' : 'session');
    expect(report.models.map((m) => `${m.modelType}:${m.architecture}`)).toEqual([
      'llama:LlamaForCausalLM',
      'mistral:MistralForCausalLM',
      'qwen2:Qwen2ForCausalLM',
      'qwen3:Qwen3ForCausalLM',
      'sdar:SDARForCausalLM',
      'lfm2:Lfm2ForCausalLM',
    ]);
  });

  it('prints a provider table and a benchmark table', async () => {
    const r = await run('doctor', '--providers', 'cpu', '--sizes', '16', '--seconds', '0.01');
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    expect(lines[0]).toBe('diffworld doctor');
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}onnxruntime {3}1\.29\.0 \(onnxruntime-node\)$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}provider {2}status {2}init ms {2}adapter \/ reason$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}cpu {7}ok +\d+ {2}\d+ threads$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}training {6}(session|io-binding\+cuda-graph): /));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}provider {3}N {2}runs {2}ms\/run {2}GFLOP\/s$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}cpu +16 +\d+ +\d+\.\d\d +\d+\.\d\d$/));
    expect(lines).toContain('Checkpoints (config.json model_type)');
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}lfm2 +Lfm2ForCausalLM +short convolutions \+ GQA; ar only$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}sdar +SDARForCausalLM +block-diffusion Qwen3; /));
  });

  it('--require fails (exit 1) when a required provider does not work, and rejects unknown names (exit 2)', async () => {
    const failing = await run('doctor', '--providers', 'cpu', '--require', 'cpu,cuda', '--no-bench', '--json');
    const report = JSON.parse(failing.out) as DoctorReport;
    const cuda = report.providers.find((p) => p.provider === 'cuda')!;
    expect(failing.code).toBe(cuda.ok ? 0 : 1);
    if (!cuda.ok) expect(failing.err).toBe('diffworld doctor: required provider(s) not working: cuda');
    expect(report.benchmarks).toEqual([]);
    const bad = await run('doctor', '--providers', 'cpu,tpu');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--providers: "cpu,tpu" is not a provider list');
  });
});
