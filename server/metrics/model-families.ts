// The models' families: `model_load_state{model}` (Spice's values) and the calls running and queued per model.
import type { Registry } from 'prom-client';
import { CollectedFamily } from './collected.js';

/** One model as the families read it at scrape time. */
export interface ModelFigures {
  readonly name: string;
  readonly status: 'loading' | 'ready' | 'error';
  /** Completions in flight and waiting for a slot (`max_concurrent`). */
  readonly active: number;
  readonly queued: number;
}

/** Spice's component states: loading is its `Initializing`. */
const LOAD_STATE = { loading: 0, ready: 1, error: 3 } as const;

export function registerModelFamilies(registry: Registry, models: () => readonly ModelFigures[]): void {
  const each = (value: (m: ModelFigures) => number) => () =>
    models().map((m) => ({ labels: { model: m.name }, value: value(m) }));
  new CollectedFamily(
    'model_load_state',
    'Model state: 0 loading, 1 ready, 3 error',
    'gauge',
    each((m) => LOAD_STATE[m.status]),
  ).registerIn(registry);
  new CollectedFamily(
    'model_active_count',
    'Model calls in flight',
    'gauge',
    each((m) => m.active),
  ).registerIn(registry);
  new CollectedFamily(
    'model_queue_length',
    'Model calls waiting for a slot (max_concurrent)',
    'gauge',
    each((m) => m.queued),
  ).registerIn(registry);
}
