// The ALFWorld game engine: state, admissible commands (PDDL preconditions, shared/reference §1.5),
// effects and feedback texts. As in TextWorld's PddlEnv, a command is looked up by exact string
// equality in the admissible list; anything else prints "Nothing happens." and changes nothing.
import { COMMANDS, NOTHING_HAPPENS, TEXT, BANNER, examineObject, type Grammar } from '../world/text.js';
import { SHARP, SLICEABLE, canContain } from '../world/vocab.js';
import { TRANSFORMS, TRANSFORM_RULES, applyTransform, canTransform } from '../world/rules.js';
import { byDisplayOrder, pySorted } from './names.js';
import type { GameSpec, ObjectSpec, ReceptacleSpec } from './scene.js';
import { TASK_SPECS } from '../world/tasks.js';

export interface GameOptions {
  grammar?: Grammar;
}

export interface ObjectState {
  hot: boolean;
  cool: boolean;
  clean: boolean;
  sliced: boolean;
  on: boolean;
}

export interface StepOutcome {
  feedback: string;
  /** The command was admissible (and so changed or inspected the world). */
  valid: boolean;
  won: boolean;
}

/** Where the agent stands: -1 is the middle of the room (no receptacle in front). */
const MIDDLE = -1;

export class AlfworldGame {
  readonly grammar: Grammar;
  private readonly recByName = new Map<string, ReceptacleSpec>();
  private readonly objByName = new Map<string, ObjectSpec>();
  /** Receptacle name, or HELD. Every object is in exactly one place. */
  private readonly where = new Map<string, string>();
  /** Extra receptacles listing an object until it is first taken (ObjectSpec.alsoIn). */
  private readonly alsoIn = new Map<string, ReadonlySet<string>>();
  private readonly state = new Map<string, ObjectState>();
  private readonly opened = new Set<string>();
  private location = MIDDLE;
  private held: string | undefined;
  private wonFlag = false;
  private cache: Map<string, () => string> | undefined;

  constructor(
    readonly spec: GameSpec,
    opts: GameOptions = {},
  ) {
    this.grammar = opts.grammar ?? 'current';
    for (const r of spec.receptacles) {
      this.recByName.set(r.name, r);
      if (r.openable && r.open) this.opened.add(r.name);
    }
    for (const o of spec.objects) {
      this.objByName.set(o.name, o);
      this.where.set(o.name, o.parent);
      if (o.alsoIn?.length) this.alsoIn.set(o.name, new Set(o.alsoIn));
      this.state.set(o.name, { hot: false, cool: false, clean: false, sliced: false, on: false });
    }
  }

  get won(): boolean {
    return this.wonFlag;
  }
  get heldObject(): string | undefined {
    return this.held;
  }
  /** The receptacles at the agent's location, in display order (empty in the middle of the room). */
  get here(): ReceptacleSpec[] {
    return this.location === MIDDLE ? [] : this.spec.receptacles.filter((r) => r.loc === this.location);
  }
  get locationIndex(): number {
    return this.location;
  }
  /**
   * The world's state as facts, key → value: the agent's location, each object's place (a
   * receptacle or held), each openable receptacle's door, each object's hot/cool/clean/sliced/on
   * flags. Two snapshots differ in the facts a step changed (EnvSimBench's state-change count).
   */
  stateFacts(): Map<string, string> {
    const facts = new Map<string, string>([['agent', String(this.location)]]);
    for (const [o, w] of this.where) facts.set(`place ${o}`, w);
    for (const r of this.spec.receptacles) if (r.openable) facts.set(`door ${r.name}`, this.opened.has(r.name) ? 'open' : 'closed');
    for (const [o, st] of this.state) for (const [flag, on] of Object.entries(st)) if (on) facts.set(`${flag} ${o}`, 'true');
    return facts;
  }

  isOpen(receptacle: string): boolean {
    return this.opened.has(receptacle);
  }
  objectState(name: string): ObjectState | undefined {
    const s = this.state.get(name);
    return s && { ...s };
  }
  /** The receptacle an object is in, or undefined while held. */
  locationOf(object: string): string | undefined {
    const w = this.where.get(object);
    return w === HELD ? undefined : w;
  }
  receptacle(name: string): ReceptacleSpec | undefined {
    return this.recByName.get(name);
  }
  object(name: string): ObjectSpec | undefined {
    return this.objByName.get(name);
  }

  /** Objects inside a receptacle, in display order. */
  contents(receptacle: string): string[] {
    const out: ObjectSpec[] = [];
    for (const o of this.spec.objects) if (this.where.get(o.name) === receptacle || this.alsoIn.get(o.name)?.has(receptacle)) out.push(o);
    return out.sort(byDisplayOrder).map((o) => o.name);
  }

  /**
   * The reset observation: banner, room overview, task line. The overview lists every receptacle;
   * a later `look` from the middle of the room lists none (the grammar's look binds the agent's
   * location, where no receptacle stands), as the real game prints.
   */
  intro(): string {
    return `${BANNER}\n\n${TEXT.middleOfRoom(this.spec.receptacles.map((r) => r.name))}\n\n${TEXT.task(this.spec.goal.text)}`;
  }

  admissibleCommands(): string[] {
    return [...this.commands().keys()];
  }

  step(command: string): StepOutcome {
    const action = this.commands().get(command.trim());
    if (!action) return { feedback: NOTHING_HAPPENS, valid: false, won: this.wonFlag };
    const feedback = action();
    this.cache = undefined;
    if (!this.wonFlag && this.goalSatisfied()) this.wonFlag = true;
    return { feedback, valid: true, won: this.wonFlag };
  }

  /** The PDDL goal of the task type, checked on the current state. */
  goalSatisfied(): boolean {
    const goal = this.spec.goal;
    const spec = TASK_SPECS[goal.taskType];
    const targets = this.spec.objects.filter((o) => o.cls === goal.obj);
    if (spec.light) {
      if (!this.held || this.objByName.get(this.held)?.cls !== goal.obj) return false;
      return this.spec.objects.some((o) => o.cls === goal.toggle && this.state.get(o.name)!.on && this.recByName.get(this.where.get(o.name)!)?.loc === this.location);
    }
    const placed = targets.filter((o) => {
      const r = this.recByName.get(this.where.get(o.name)!);
      if (!r || r.cls !== goal.recep) return false;
      return spec.transform ? this.state.get(o.name)![TRANSFORM_RULES[spec.transform].sets] : true;
    });
    if (!spec.two) return placed.length > 0;
    const perRec = new Map<string, number>();
    for (const o of placed) perRec.set(this.where.get(o.name)!, (perRec.get(this.where.get(o.name)!) ?? 0) + 1);
    return [...perRec.values()].some((n) => n >= 2);
  }

  // ---- text views -------------------------------------------------------------------------

  /** "On the X, you see …" / "The X is open. In it, …" / "The X is closed." */
  receptacleView(r: ReceptacleSpec): string {
    if (!r.openable) return TEXT.onReceptacle(r.name, this.contents(r.name));
    if (this.opened.has(r.name)) return TEXT.openReceptacle(r.name, this.contents(r.name));
    return TEXT.closedReceptacle(r.name);
  }

  private lookText(): string {
    if (this.location === MIDDLE) return TEXT.middleOfRoom([]);
    return TEXT.facing(
      this.here.map((r) => r.name),
      [],
    );
  }

  // ---- the admissible commands and their effects ------------------------------------------

  private commands(): Map<string, () => string> {
    if (this.cache) return this.cache;
    const cmds = new Map<string, () => string>();
    const here = this.here;
    const held = this.held;
    const heldObj = held ? this.objByName.get(held)! : undefined;

    for (const r of this.spec.receptacles) {
      if (r.loc === this.location) continue;
      cmds.set(COMMANDS.goTo(r.name), () => {
        this.location = r.loc;
        return TEXT.arrive(this.grammar, r.name, this.spec.locations[r.loc]!) + this.receptacleView(r);
      });
    }
    for (const r of here) {
      const visible = !r.openable || this.opened.has(r.name);
      cmds.set(COMMANDS.examine(r.name), () => this.receptacleView(r));
      if (r.openable && !this.opened.has(r.name))
        cmds.set(COMMANDS.open(r.name), () => {
          this.opened.add(r.name);
          return TEXT.open(r.name, this.contents(r.name));
        });
      if (r.openable && this.opened.has(r.name))
        cmds.set(COMMANDS.close(r.name), () => {
          this.opened.delete(r.name);
          return TEXT.close(r.name);
        });
      if (visible) {
        for (const oName of this.contents(r.name)) {
          const o = this.objByName.get(oName)!;
          if (!held && o.pickupable)
            cmds.set(COMMANDS.take(o.name, r.name), () => {
              this.where.set(o.name, HELD);
              this.alsoIn.delete(o.name);
              this.held = o.name;
              return TEXT.take(o.name, r.name);
            });
          if (o.toggleable)
            cmds.set(COMMANDS.use(o.name), () => {
              this.state.get(o.name)!.on = true;
              return TEXT.use(o.name);
            });
          if (heldObj && SHARP.has(heldObj.cls) && SLICEABLE.has(o.cls) && !this.state.get(o.name)!.sliced)
            cmds.set(COMMANDS.slice(o.name, heldObj.name), () => {
              this.state.get(o.name)!.sliced = true;
              return TEXT.slice(o.name, heldObj.name);
            });
        }
        if (heldObj && canContain(r.cls, heldObj.cls))
          cmds.set(COMMANDS.put(this.grammar, heldObj.name, r.name), () => {
            this.where.set(heldObj.name, r.name);
            this.held = undefined;
            return TEXT.put(this.grammar, heldObj.name, r.name);
          });
      }
      if (heldObj) {
        for (const t of TRANSFORMS) {
          if (!canTransform(t, heldObj.cls, r.cls)) continue;
          cmds.set(COMMANDS[t](heldObj.name, r.name), () => {
            applyTransform(this.state.get(heldObj.name)!, t);
            return TEXT[t](heldObj.name, r.name);
          });
        }
      }
    }
    if (heldObj) cmds.set(COMMANDS.examine(heldObj.name), () => examineObject(heldObj.name, heldObj.cls, this.state.get(heldObj.name)!));
    cmds.set(COMMANDS.inventory, () => TEXT.inventory(this.held ? [this.held] : []));
    cmds.set(COMMANDS.look, () => this.lookText());
    if (this.grammar === 'current') cmds.set(COMMANDS.help, () => TEXT.help);

    // sorted(set(...)): the admissible list is lexicographic.
    const sorted = new Map<string, () => string>();
    for (const k of pySorted(cmds.keys())) sorted.set(k, cmds.get(k)!);
    this.cache = sorted;
    return sorted;
  }
}

const HELD = '\u0000held';
