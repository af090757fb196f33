// The data stage: world-model rows from the real engine (expert and perturbed episodes) of the
// training split and of the held-out split, the paper's length diversification on training rows
// when asked, and every row held to the world model's sequence length (worldModel.train.seqLength,
// template included): history cut in the middle, or the row dropped and counted. With corpus.layout
// 'episode': one training row per episode and one held-out row per step (episodeStepRows); those
// rows are kept whole here (the trainer, and the world model at inference, window long episodes).
import { join } from 'node:path';
import { type ChatRow, type DiversifyCounts, diversifyRow, episodeStepRows, writeFileAtomic } from '@diffworld/dataset';
import { ExperimentError } from '../errors.js';
import { fitWorldModelRow } from '../wm-budget.js';
import type { ExperimentContext } from './context.js';
import type { StageOutcome } from './runner.js';
import { type TokenizerArtefact, collectRows } from './tokenizer.js';

export interface DataResult {
  trainRows: number;
  heldoutRows: number;
  heldoutSplit: string;
  diversify: DiversifyCounts | null;
  fit: { train: Record<string, number>; heldout: Record<string, number> };
  /** Tokens per row the rows were fitted to. */
  maxRowTokens: number;
}

export interface DataArtefact {
  outcome: StageOutcome<DataResult>;
  train: string;
  heldout: string;
}

const writeRows = (file: string, rows: readonly ChatRow[]) => writeFileAtomic(file, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);

export async function dataStage(ctx: ExperimentContext, tok: TokenizerArtefact): Promise<DataArtefact> {
  const c = ctx.config;
  const suite = ctx.suite;
  const heldoutSplit = c.corpus.heldoutSplit ?? suite.splits[1]!;
  const maxRowTokens = c.worldModel.train.seqLength;
  const { layout, ...corpusKey } = c.corpus;
  const episode = layout === 'episode';
  if (episode && c.corpus.diversify)
    throw new ExperimentError('bad_config', 'corpus.diversify cuts the history of transition rows; with corpus.layout "episode" the trainer windows long episodes instead: leave diversify off');
  // The transition layout keeps the key it had before layouts existed, so earlier runs stay cached.
  const key = { env: c.env, seed: c.seed, corpus: episode ? c.corpus : corpusKey, heldoutSplit, maxRowTokens, tokenizer: tok.ref };
  const s = await ctx.runner.run('data', key, async (dir) => {
    let train = await collectRows(suite, suite.splits[0]!, c.corpus.trainEpisodes, c.seed, layout);
    let heldout = await collectRows(suite, heldoutSplit, c.corpus.heldoutEpisodes, c.seed + 1, layout);
    if (episode) heldout = heldout.flatMap((r) => episodeStepRows(r.messages).map((messages) => ({ ...r, messages })));
    let counts: DiversifyCounts | null = null;
    if (c.corpus.diversify) {
      const cnt: DiversifyCounts = { rowsIn: 0, rowsOut: 0, truncated: 0, turnsDropped: 0, subTrajectories: 0 };
      train = train.flatMap((r) => diversifyRow(r, { maxTokens: maxRowTokens, seed: c.seed, subTrajectoryProb: c.corpus.subTrajectoryProb }, cnt));
      counts = cnt;
    }
    const count = (t: string) => tok.tok.encodeIds(t, { addSpecialTokens: false }).length;
    const fit = (rows: ChatRow[]) => {
      const outcomes: Record<string, number> = { fits: 0, shortened: 0, dropped: 0 };
      const kept = rows.flatMap((r) => {
        if (episode) {
          // Kept whole: windowed later, by the trainer and the world model, to the model's own length.
          outcomes['fits']!++;
          return [r];
        }
        const f = fitWorldModelRow(r, { maxTokens: maxRowTokens, count, seed: c.seed });
        outcomes[f.outcome] = (outcomes[f.outcome] ?? 0) + 1;
        return f.row ? [f.row] : [];
      });
      return { kept, outcomes };
    };
    const ft = fit(train);
    const fh = fit(heldout);
    if (ft.kept.length === 0 || fh.kept.length < 2)
      throw new ExperimentError(
        'bad_config',
        `worldModel.train.seqLength ${maxRowTokens}: leaves ${ft.kept.length} training and ${fh.kept.length} held-out ${c.env} rows (${ft.outcomes['dropped']} + ${fh.outcomes['dropped']} dropped as too long with a ${tok.tok.vocabSize}-token vocabulary); raise it or tokenizer.vocabSize`,
      );
    writeRows(join(dir, 'train.jsonl'), ft.kept);
    writeRows(join(dir, 'heldout.jsonl'), fh.kept);
    ctx.log(`[data] ${ft.kept.length} training rows (${ft.outcomes['shortened']} shortened, ${ft.outcomes['dropped']} dropped), ${fh.kept.length} held-out rows (${heldoutSplit})`);
    return { trainRows: ft.kept.length, heldoutRows: fh.kept.length, heldoutSplit, diversify: counts, fit: { train: ft.outcomes, heldout: fh.outcomes }, maxRowTokens } satisfies DataResult;
  });
  await ctx.metric({ stage: 'data', ...s.result.fit.train, rows: s.result.trainRows, heldoutRows: s.result.heldoutRows });
  return { outcome: s, train: join(s.dir, 'train.jsonl'), heldout: join(s.dir, 'heldout.jsonl') };
}
