// A model argument (--init, --model) to a local directory: a directory as given, or a Hub model
// `org/name[@revision]` fetched into the huggingface_hub cache (HF_ENDPOINT, HF_TOKEN, HF_HUB_OFFLINE)
// with its progress on stderr. Hub failures are HubErrors, which exit 2 like any bad input.
import { type ResolvedModel, hubProgressLogger, resolveModelDir } from '@diffworld/mdlm-core';

/** The directory a model argument stands for; `flag` names the option in notes. */
export async function resolveModelArg(spec: string, flag: string, io: { err: (line: string) => void }): Promise<ResolvedModel> {
  const r = await resolveModelDir(spec, { log: (l) => io.err(`note: ${l}`), onProgress: hubProgressLogger(io.err) });
  if (r.source !== 'local') {
    const fetched = r.downloaded.length ? `, ${r.downloaded.length} files downloaded (${(r.bytesDownloaded / 2 ** 20).toFixed(1)} MiB)` : ', all files cached';
    io.err(`${flag} ${spec}: commit ${r.commit}${r.source === 'cache' ? ' from the cache (offline)' : fetched} → ${r.dir}`);
  }
  return r;
}

/** The paragraph every command taking a model adds to its help. */
export const HUB_MODEL_HELP = `Hub models: where a checkpoint directory is taken, a Hugging Face Hub id org/name[@revision]
(branch, tag or commit) is too: config.json, the safetensors weights and the tokenizer files are
downloaded (resumably, size- and sha256-checked) into the huggingface_hub cache that Python shares
(HF_HOME, HF_HUB_CACHE) and loaded from there. HF_ENDPOINT names the Hub, HF_TOKEN a token for
gated or private models, HF_HUB_OFFLINE=1 uses the cache without the network.`;
