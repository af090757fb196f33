// The expert's hands: issues commands to a live game using unambiguous referents (answering the
// ambiguity prompt with the right index when the world has identical objects), and navigates.
import type { Game } from '../game.js';
import type { Obj } from '../world.js';
import { referents, visibleObjects, ReferentIndex } from '../parser.js';

export class ExpertError extends Error {}
/** Thrown when the episode ended before the plan ran out (the task may have completed early). */
export class EpisodeOver extends Error {}

export class Driver {
  readonly actions: string[] = [];
  constructor(
    readonly game: Game,
    readonly maxActions = 95,
  ) {}

  get w() {
    return this.game.w;
  }

  /** Sends raw input; returns the observation. */
  send(input: string): string {
    if (this.game.done) throw new EpisodeOver(`expert: episode ended before '${input}' (score ${this.game.score()})`);
    if (this.actions.length >= this.maxActions) throw new ExpertError(`expert: more than ${this.maxActions} actions`);
    this.actions.push(input);
    this.visible = undefined;
    return this.game.step(input).observation;
  }

  /**
   * What the agent can name now. The world changes only through `send` (the expert reads it and
   * never edits it), so one index serves every referent chosen between two steps.
   */
  private visible: ReferentIndex | undefined;
  private index(): ReferentIndex {
    this.visible ??= new ReferentIndex(this.w, visibleObjects(this.w, true));
    return this.visible;
  }

  /** Best referent for an object: the first of its referents that names only it here. */
  ref(o: Obj): string {
    const index = this.index();
    const refs = referents(this.w, o, this.w.agentRoom());
    return refs.find((r) => index.lookup(r).length === 1) ?? refs[0]!;
  }

  /** `template` with {a}/{b} filled by referents of `objs`; resolves ambiguity to exactly these objects. */
  act(template: string, ...objs: Obj[]): string {
    const input = this.fill(template, objs);
    const obs = this.send(input);
    const options = this.game.pendingOptionObjects();
    if (!options) return obs;
    const idx = options.findIndex((os) => os.length === objs.length && os.every((o, j) => o.id === objs[j]!.id));
    if (idx < 0) throw new ExpertError(`expert: no ambiguity option for '${input}'`);
    return this.send(String(idx));
  }

  private fill(template: string, objs: Obj[]): string {
    let i = 0;
    return template.replace(/\{[ab]\}/g, () => this.ref(objs[i++]!));
  }

  here(): number {
    return this.w.agentRoom();
  }

  goTo(room: number): void {
    if (this.here() === room) return;
    if (this.game.opts.simplifications.teleportAction) {
      this.act('teleport to {a}', this.w.get(room));
      return;
    }
    for (const next of this.path(room)) {
      const door = this.w.doorsOf(this.here()).find((d) => this.w.otherSide(d, this.here()) === next)!;
      if (!door.isOpen) this.act('open {a}', door);
      this.act('go to {a}', this.w.get(next));
    }
  }

  private path(to: number): number[] {
    const prev = new Map<number, number>([[this.here(), -1]]);
    const queue = [this.here()];
    while (queue.length) {
      const r = queue.shift()!;
      if (r === to) break;
      for (const d of this.w.doorsOf(r)) {
        const n = this.w.otherSide(d, r);
        if (!prev.has(n)) prev.set(n, r), queue.push(n);
      }
    }
    const out: number[] = [];
    for (let r = to; r !== this.here(); r = prev.get(r)!) out.unshift(r);
    return out;
  }

  /** Opens every closed container between the room and `o` (furniture doors, appliances). */
  reach(o: Obj): void {
    this.goTo(this.w.roomOf(o.id));
    const chain: Obj[] = [];
    for (let p = o.parent; p !== -1 && this.w.kind(this.w.get(p)).category !== 'room'; p = this.w.get(p).parent) chain.unshift(this.w.get(p));
    for (const c of chain) if (!this.w.canSeeInside(c) && c.kind !== 'agent') this.act('open {a}', c);
  }

  find(pred: (o: Obj) => boolean): Obj | undefined {
    return this.w.objs.find((o) => !o.removed && o.parent !== -1 && pred(o));
  }

  need(pred: (o: Obj) => boolean, what: string): Obj {
    const o = this.find(pred);
    if (!o) throw new ExpertError(`expert: cannot find ${what}`);
    return o;
  }

  /** Waits tick by tick until `done` holds (bounded). */
  waitUntil(done: () => boolean, max = 40, each?: () => void): void {
    for (let i = 0; i < max && !done(); i++) {
      if (this.game.done) return;
      if (each) each();
      else this.tick();
    }
  }

  private looked = 0;

  /**
   * Lets one tick pass with `template` (default `wait1`) without the loops the reference scheduler
   * kills (three identical actions, ABAB, fewer than 5 distinct actions in 20): every third tick it
   * looks at the next object of the room instead (looking at a thing also takes a tick).
   */
  tick(template = 'wait1', ...objs: Obj[]): void {
    const input = this.fill(template, objs);
    const n = this.actions.length;
    if (n < 2 || this.actions[n - 1] !== input || this.actions[n - 2] !== input) {
      this.act(template, ...objs);
      return;
    }
    const room = this.w.get(this.here());
    // Room things, doors and carried things: enough distinct looks for a long wait in a bare room.
    const carried = this.w.get(this.w.agent).contents;
    const things = [...room.contents, ...this.w.doorsOf(room.id).map((d) => d.id), ...carried].map((c) => this.w.get(c)).filter((o) => o.kind !== 'agent' && o.material !== 'air');
    if (things.length === 0) return void this.send('look around');
    this.act('look at {a}', things[this.looked++ % things.length]!);
  }
}
