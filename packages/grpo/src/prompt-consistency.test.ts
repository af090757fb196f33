// What SFT trains on is what the policy sees at evaluation, token for token. A policy that writes
// the expert's tokens, played through evaluation's rollout path (a fresh harness-framed real env
// per game, the task's seed, the chat codec, the window and turn limits — evaluatePolicy's jobs),
// produces exactly the ids and loss mask of SFT's example of that demonstration: the same system
// prompt, the same user turns ("Observation:\n…\n\nAdmissible commands:\n- …", the full list at
// every turn), the same assistant headers before each action, the same cut at the window. Checked
// at the cpu preset's turn and window limits (6 turns, a 2,048-token window that ends most
// demonstrations early) and with room to spare. The per-turn budget must hold the longest expert
// action with its <|im_end|>, or the policy could never finish a turn SFT trained: 32 here (this
// coarse test tokenizer spends up to 30 tokens on one), 16 in the preset (its run's tokenizer, 12).
import { fileURLToPath } from 'node:url';
import { Rng } from '@diffworld/dataset';
import { envSuite } from '@diffworld/envs';
import { Tokenizer } from '@diffworld/tokenizer';
import { describe, expect, it } from 'vitest';
import { ChatTurnCodec } from './chat-codec.js';
import { type Episode, type NextTokenPolicy, type RolloutLimits, demonstration, rollout } from './rollout.js';
import { sftExample } from './sft.js';
import { realEngineSource } from './sources.js';

const TOKENIZER = fileURLToPath(new URL('../../../test-data/tokenizer/ours.tokenizer.json', import.meta.url));
const tok = Tokenizer.load(TOKENIZER);
const suite = envSuite('alfworld');
const codec = new ChatTurnCodec(tok, { system: suite.agent.system() });

/** Writes each demonstration's own next token; any row that is not a prefix of its demonstration fails the test. */
function replaying(demos: readonly Episode[]): NextTokenPolicy {
  return {
    batch: demos.length,
    async nextLogits(rows) {
      return rows.map((row) => {
        const d = demos.find((e) => row.length < e.ids.length && row.every((id, i) => id === e.ids[i]));
        // Past the demonstration's last token (a window cut before its next turn): end the turn.
        const next = d ? d.ids[row.length]! : codec.endOfTurn;
        if (!d && !demos.some((e) => row.length >= e.ids.length && e.ids.every((id, i) => id === row[i]))) {
          const near = demos.map((e) => ({ e, at: row.findIndex((id, i) => id !== e.ids[i]) })).sort((a, b) => b.at - a.at)[0]!;
          throw new Error(
            `a row of ${row.length} tokens is no demonstration's prefix; nearest ${near.e.task.id}, from token ${near.at}: ${JSON.stringify(tok.decode(row.slice(near.at - 20, near.at + 20)))}`,
          );
        }
        const logits = new Float64Array(tok.vocabSize);
        logits[next] = 1;
        return logits;
      });
    },
  };
}

describe.each<[string, RolloutLimits]>([
  ['the cpu preset (6 turns, 2,048-token window)', { maxTurns: 6, maxTokensPerTurn: 32, maxSeqLen: 2048 }],
  ['a roomy window (12 turns, 8,192 tokens)', { maxTurns: 12, maxTokensPerTurn: 32, maxSeqLen: 8192 }],
])('SFT examples equal the evaluation prompts, %s', (_, limits) => {
  it('a policy writing the expert tokens sees, at every turn, exactly the ids SFT trained on', async () => {
    const tasks = new Rng(0).fork('sft').sample(suite.tasks(suite.splits[0]!), 6);
    const demos: Episode[] = [];
    for (const t of tasks)
      demos.push(
        await demonstration(
          realEngineSource(suite).makeEnv(),
          t,
          suite.expert(t).map((a) => suite.agent.formatAction(a)),
          codec,
          limits,
          t.seed,
        ),
      );
    // evaluatePolicy's jobs: a fresh framed env per game, the task's own seed.
    const source = realEngineSource(suite);
    const rng = new Rng(1);
    const jobs = tasks.map((task, k) => ({ task, groupId: `eval:${k}`, env: source.makeEnv(), rng: rng.fork(k), seed: task.seed }));
    const played = await rollout(replaying(demos), jobs, codec, limits, { temperature: 0 });
    let cutByWindow = 0;
    for (const [k, d] of demos.entries()) {
      const ex = sftExample(d, d.task.id);
      const ep = played[k]!;
      expect(ep.ids.slice(0, ex.ids.length), d.task.id).toEqual(Array.from(ex.ids));
      expect(ep.lossMask.slice(0, ex.ids.length), d.task.id).toEqual(Array.from(ex.target));
      expect(ep.actions.slice(0, d.actions.length), d.task.id).toEqual(d.actions);
      // Every user turn of the evaluation, the first included, is the harness's observation + command list.
      for (const m of ep.messages.filter((x) => x.role === 'user')) expect(m.content, d.task.id).toMatch(/^Observation:\n[\s\S]*\n\nAdmissible commands:\n- /);
      if (d.truncated && d.turns < limits.maxTurns) cutByWindow++;
    }
    if (limits.maxSeqLen === 2048) expect(cutByWindow, 'the small window ends some demonstrations early').toBeGreaterThan(0);
  }, 120_000);
});
