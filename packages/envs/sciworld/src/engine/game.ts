// The synchronous game loop: special inputs, parsing with the ambiguity dialog, action, world ticks,
// subgoal checks before and after each tick, score and episode end (ScienceWorld's rules).
import { TEXT } from '../world/text.js';
import { helpActions } from '../world/grammar.js';
import { World, type Obj } from './world.js';
import { GoalTracker, type GoalEvents, type GoalSpec } from './goals.js';
import { ReferentIndex, parseCommands, renderCommand, visibleObjects, type Command } from './parser.js';
import { execute } from './actions.js';
import { tick } from './physics.js';
import { ageAnimals } from './animal-life.js';

export interface Simplifications {
  teleportAction: boolean;
  openDoors: boolean;
  selfWateringFlowerPots: boolean;
  openContainers: boolean;
  noElectricalAction: boolean;
}

export const NO_SIMPLIFICATIONS: Simplifications = {
  teleportAction: false,
  openDoors: false,
  selfWateringFlowerPots: false,
  openContainers: false,
  noElectricalAction: false,
};

export interface GameSetup {
  world: World;
  description: string;
  goals: GoalSpec;
}

export interface GameStep {
  observation: string;
  /** round(100 · score), −100 after a failure. */
  score: number;
  reward: number;
  done: boolean;
  /** The input parsed into an action (or an ambiguity choice) that applied. */
  valid: boolean;
  /** World ticks so far (ScienceWorld's getNumMoves counts iterations of the world, not inputs). */
  moves: number;
}

export interface GameOptions {
  simplifications: Simplifications;
  /**
   * ScienceWorld's envStepLimit: the episode ends once its move count exceeds it, and that count is
   * the world's ticks (AgentInterface.curIter, one per universe tick), so `wait` uses 11 of them and
   * `look around`, `inventory`, parse failures and ambiguity prompts none.
   */
  stepLimit: number;
}

const collapse = (s: string) => s.replace(/ +/g, ' ');

export class Game {
  readonly w: World;
  readonly goals: GoalTracker;
  /** World ticks so far (see GameOptions.stepLimit). */
  moves = 0;
  private lastScore = 0;
  private pending: Command[] | undefined;
  private ended = false;

  constructor(
    readonly setup: GameSetup,
    readonly opts: GameOptions,
  ) {
    this.w = setup.world;
    if (opts.simplifications.openContainers) for (const o of this.w.objs) if (this.w.kind(o).openable && !o.rooms) o.isOpen = true;
    // No tick before the first observation: ScienceWorld shows the world as built (a fountain
    // still empty, the toilet's drain still open) until the first action.
    this.goals = new GoalTracker(setup.goals, this.w);
  }

  score(): number {
    return Math.round(100 * this.goals.score());
  }

  get done(): boolean {
    return this.ended;
  }

  look(): string {
    return collapse(this.w.describeRoom(this.w.agentRoom()));
  }

  step(input: string): GameStep {
    // Like ScienceWorld, the world keeps answering after the episode ends (won, failed or out of
    // steps); the score stays where it ended and `done` stays true.
    const { text, valid } = this.respond(input);
    const score = this.score();
    const reward = score - this.lastScore;
    this.lastScore = score;
    this.ended = this.ended || this.goals.completed() || this.goals.failed || this.moves > this.opts.stepLimit;
    // The fallback for an empty answer is added after ScienceWorld collapses spaces (it keeps its two).
    return { observation: text === '' ? TEXT.empty : collapse(text), score, reward, done: this.ended, valid, moves: this.moves };
  }

  private respond(raw: string): { text: string; valid: boolean } {
    const input = raw.trim();
    if (this.pending) {
      const options = this.pending;
      this.pending = undefined;
      const n = /^\d+$/.test(input) ? Number(input) : NaN;
      if (!(n >= 0 && n < options.length)) {
        // ScienceWorld cancels the choice with no action queued; an empty queue counts as waiting,
        // so the goals are checked, the world ticks, and the answer is the empty-output fallback.
        if (this.goals.countsEvaluations) this.checkGoals({});
        this.tickOnce();
        return { text: '', valid: false };
      }
      return this.run(options[n]!);
    }
    const lower = input.toLowerCase();
    if (lower === 'help') return { text: `${TEXT.possibleActions}\n\t${helpActions(this.opts.simplifications.teleportAction).join('\n\t')}\n`, valid: true };
    if (lower === 'objects') return { text: `${TEXT.possibleObjects}\n\t${this.index().keys().sort().join('\n\t')}\n`, valid: true };
    if (lower === 'task') return { text: TEXT.taskDescription(this.setup.description), valid: true };
    if (lower === '') return { text: '', valid: false };
    const cmds = parseCommands(this.w, input, () => this.index(), this.opts.simplifications.teleportAction);
    if (cmds.length === 0) return { text: TEXT.unknownAction, valid: false };
    if (cmds.length === 1) return this.run(cmds[0]!);
    this.pending = cmds;
    const lines = cmds.map((c, i) => `${i}:\t${renderCommand(this.w, c, true)}`);
    return { text: `${TEXT.ambiguous}\n${lines.join('\n')}\n`, valid: true };
  }

  /** Current ambiguity options (valid inputs are their indices). */
  pendingOptions(): string[] | undefined {
    return this.pending?.map((c) => renderCommand(this.w, c, true));
  }

  /** The objects of each pending ambiguity option, in prompt order (for experts). */
  pendingOptionObjects(): Obj[][] | undefined {
    return this.pending?.map((c) => c.objs);
  }

  index(): ReferentIndex {
    return new ReferentIndex(this.w, visibleObjects(this.w, true));
  }

  private run(cmd: Command): { text: string; valid: boolean } {
    if (cmd.template.id === 'reset task') this.goals.reset();
    const result = execute({ w: this.w, teleport: this.opts.simplifications.teleportAction, electrical: !this.opts.simplifications.noElectricalAction }, cmd);
    // ScienceWorld's step loop: per iteration the goals are checked, the world ticks (when the action
    // takes time), the goals are checked again; waiting adds iterations, and it keeps waiting even
    // after the task completes. The first check sees this action's events.
    this.checkGoals({ ...result.events, acted: true });
    // The extra checks change nothing but goals that count their own evaluations (stayIn).
    const every = this.goals.countsEvaluations;
    if (result.ticks === 0 && every) this.checkGoals({});
    for (let i = 0; i < result.ticks; i++) {
      if (i > 0 && every) this.checkGoals({});
      this.tickOnce();
    }
    // ScienceWorld trims what the step loop printed (so "I'm not sure how to pour a solid. " loses its space).
    return { text: result.text.trim(), valid: !result.failed };
  }

  private tickOnce(): void {
    this.moves++;
    tick(this.w, { selfWateringFlowerPots: this.opts.simplifications.selfWateringFlowerPots });
    ageAnimals(this.w);
    this.checkGoals({});
  }

  private checkGoals(ev: GoalEvents): void {
    this.goals.update(this.w, ev);
  }

  /** Valid actions now (a bounded enumeration of templates × visible objects, as ScienceWorld's). */
  validActions(): string[] {
    if (this.pending) return this.pending.map((_, i) => String(i));
    const w = this.w;
    const objs = visibleObjects(w, false).filter((o) => w.kind(o).category !== 'room' && !o.terminal);
    const out = new Set<string>(['look around', 'inventory', 'task', 'wait', 'wait1']);
    const name = (o: (typeof objs)[number]) => (o.rooms ? `door to ${w.name(w.get(w.otherSide(o, w.agentRoom())))}` : w.name(o));
    for (const o of objs) {
      const k = w.kind(o);
      const n = name(o);
      out.add(`look at ${n}`);
      if (o.kind !== 'agent') out.add(`focus on ${n}`);
      if (k.openable) out.add(o.isOpen ? `close ${n}` : `open ${n}`);
      if (k.activatable) out.add(o.isOn ? `deactivate ${n}` : `activate ${n}`);
      if (k.movable && o.parent !== w.agent) out.add(`pick up ${n}`);
      if (k.edible) out.add(`eat ${n}`);
      if (k.holds) out.add(`look in ${n}`);
      if (k.movable) for (const t of objs) if (t !== o && w.kind(t).holds && w.canSeeInside(t)) out.add(`move ${n} to ${name(t)}`);
      if (k.thermometer) for (const t of objs) if (t !== o) out.add(`use ${n} on ${name(t)}`);
    }
    const here = w.agentRoom();
    for (const d of w.doorsOf(here)) out.add(`go to ${w.name(w.get(w.otherSide(d, here)))}`);
    if (this.opts.simplifications.teleportAction) for (const r of w.roomIds.keys()) out.add(`teleport to ${r}`);
    return [...out].sort();
  }
}
