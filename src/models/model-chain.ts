import type { LanguageModel } from 'ai';
import { type ModelFailureRecord, ModelHealth } from './model-health.ts';
import type { ModelInfo } from './types.ts';

/** How long a model whose call moved on to the next is skipped, unless configured otherwise. */
export const defaultCooldownMs = 30_000;

/** One model of a chain: what answers, under which name. */
export interface ModelChoice {
  languageModel: LanguageModel;
  info: ModelInfo;
}

/** A model of a chain with its own health and cool-down. */
export interface ModelLink extends ModelChoice {
  /** `<provider>:<model id>`. */
  name: string;
  health: ModelHealth;
  /** Until when calls skip it (ms since the epoch); null when they do not. */
  coolingDownUntil: number | null;
}

/** A model of a chain as the status endpoint shows it (times in ms since the epoch). */
export interface ModelLinkState {
  model: string;
  state: 'ok' | 'cooling-down' | 'failing';
  lastError: Omit<ModelFailureRecord, 'model'> | null;
  coolingDownUntil: number | null;
}

/** A model's `<provider>:<model id>`. */
export function modelName(info: ModelInfo): string {
  return `${info.provider}:${info.modelId}`;
}

/**
 * The models a call may go to, in order, and which of them are cooling down. A model whose
 * call moved on to the next is skipped for `cooldownMs` (0: never); the first call after
 * tries it first again. The last model is never skipped.
 */
export class ModelChain {
  readonly links: readonly ModelLink[];
  readonly cooldownMs: number;

  constructor(choices: readonly ModelChoice[], cooldownMs = defaultCooldownMs) {
    if (choices.length === 0) throw new RangeError('a model chain needs at least one model');
    this.links = choices.map((choice) => ({
      ...choice,
      name: modelName(choice.info),
      health: new ModelHealth(),
      coolingDownUntil: null,
    }));
    this.cooldownMs = cooldownMs;
  }

  /** The models a call made at `now` tries, in order: those not cooling down, and the last. */
  candidates(now = Date.now()): ModelLink[] {
    const last = this.links.length - 1;
    return this.links.filter(
      (link, index) =>
        index === last || link.coolingDownUntil === null || link.coolingDownUntil <= now,
    );
  }

  /** A call moved on from `link`: calls skip it for the cool-down. */
  coolDown(link: ModelLink, now = Date.now()): void {
    if (this.cooldownMs > 0 && link !== this.links.at(-1)) {
      link.coolingDownUntil = now + this.cooldownMs;
    }
  }

  /** `link` answered: it is no longer cooling down. */
  answered(link: ModelLink): void {
    link.coolingDownUntil = null;
  }

  /** Each model's state at `now`: cooling down, failing (its latest call failed) or ok. */
  describe(now = Date.now()): ModelLinkState[] {
    return this.links.map((link) => {
      const cooling = link.coolingDownUntil !== null && link.coolingDownUntil > now;
      const lastError = link.health.lastError;
      return {
        model: link.name,
        state: cooling ? 'cooling-down' : link.health.failing ? 'failing' : 'ok',
        lastError:
          lastError === null
            ? null
            : { code: lastError.code, message: lastError.message, at: lastError.at },
        coolingDownUntil: cooling ? link.coolingDownUntil : null,
      };
    });
  }
}
