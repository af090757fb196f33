// Golden suite: this engine against the real ScienceWorld recordings (the paper's split files and its
// 37 winning transcripts). Each share is printed and must not drop below the floor reached so far;
// raise a floor whenever the engine gets closer to the real one.
import { describe, expect, it } from 'vitest';
import { readRecordedTasks, readRecordedTranscripts, recordingsDir } from './recordings.js';
import { canonicalTies, formatShare, measureGolden, type GoldenReport, type Share } from './measure.js';

const FLOORS: Record<'descriptions' | 'startRooms' | 'startObservations' | 'rooms' | 'roomsUpToTieOrder' | 'wholeTasks' | 'transcriptSteps' | 'wholeTranscripts' | 'transcriptsWon', number> = {
  descriptions: 120,
  startRooms: 120,
  startObservations: 115,
  rooms: 1086,
  roomsUpToTieOrder: 1200,
  wholeTasks: 17,
  transcriptSteps: 465,
  wholeTranscripts: 24,
  transcriptsWon: 34,
};

const dir = recordingsDir();

describe.skipIf(!dir)('golden: the real ScienceWorld recordings', () => {
  let report: GoldenReport;
  it('reads 120 task ids and 37 transcripts', () => {
    const tasks = readRecordedTasks(dir!);
    const transcripts = readRecordedTranscripts(dir!);
    expect(tasks).toHaveLength(120);
    expect(transcripts).toHaveLength(37);
    report = measureGolden(tasks, transcripts);
  });

  for (const key of Object.keys(FLOORS) as (keyof typeof FLOORS)[]) {
    it(`${key}: at least ${FLOORS[key]} identical`, () => {
      const s: Share = report[key];
      console.log(`golden ${key}: ${formatShare(s)}`);
      expect(s.matched).toBeGreaterThanOrEqual(FLOORS[key]);
    });
  }

  it('mean replayed score of the real winning transcripts', () => {
    console.log(`golden mean transcript score: ${report.meanTranscriptScore.toFixed(1)} (real: 100)`);
    expect(report.meanTranscriptScore).toBeGreaterThanOrEqual(95.9);
  });
});

describe('canonicalTies', () => {
  it('orders runs of same-named containers and leaves the rest alone', () => {
    const a = 'a table. On the table is: a jug (containing nothing). a wood cup (containing red paint) a wood cup (containing blue paint) You also see:';
    const b = 'a table. On the table is: a jug (containing nothing). a wood cup (containing blue paint) a wood cup (containing red paint) You also see:';
    expect(canonicalTies(a)).toBe(canonicalTies(b));
    expect(canonicalTies(a)).not.toBe(canonicalTies(a.replace('red paint', 'green paint')));
    expect(canonicalTies('a glass cup (containing nothing) a jug (containing nothing)')).toBe('a glass cup (containing nothing) a jug (containing nothing)');
  });
});
