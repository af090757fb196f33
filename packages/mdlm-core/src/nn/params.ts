// What a model declares about each of its parameters. The model builders (transformer.ts) and the
// trainer's step graphs (train/step.ts) both speak it, so it lives with the model: the model does
// not import the trainer.

export interface ParamSpec {
  name: string;
  shape: readonly number[];
  /** Whether AdamW's weight decay applies (default true). */
  decay?: boolean;
}
