import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import { ConfigFileError } from './errors/config-file-error.ts';
import { loadConfigFile } from './load-config.ts';
import type { LoadedConfig } from './types.ts';

/** What a ConfigWatcher calls after a save. */
export interface ConfigWatchHandlers {
  /** A version that loaded; a throw (its graphs or tools cannot work) goes to `onError`. */
  onReload: (loaded: LoadedConfig) => Promise<void>;
  onError: (message: string) => void;
}

/** How long a burst of file events settles before the config is loaded again. */
const settleMs = 150;

/**
 * Watches a config file and every local file it imports (their folders, so that editors
 * that save by renaming are seen) and loads the config again after a save: a version that
 * loads goes to `onReload`, one that does not to `onError` with its problems (file and line
 * first when known). The files watched follow what the last good version imports.
 * @example
 * const watcher = new ConfigWatcher('/app/yeoul.config.ts', { onReload, onError });
 * watcher.watch(loaded.files);
 */
export class ConfigWatcher {
  #path: string;
  #handlers: ConfigWatchHandlers;
  #files = new Set<string>();
  #watchers = new Map<string, FSWatcher>();
  #timer: NodeJS.Timeout | undefined;
  #loading: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(path: string, handlers: ConfigWatchHandlers) {
    this.#path = path;
    this.#handlers = handlers;
  }

  /** Watches these files (the config and what it imports), replacing the earlier set. */
  watch(files: readonly string[]): void {
    this.#files = new Set([this.#path, ...files]);
    const folders = new Set([...this.#files].map((file) => dirname(file)));
    for (const [folder, watcher] of this.#watchers) {
      if (folders.has(folder)) continue;
      watcher.close();
      this.#watchers.delete(folder);
    }
    for (const folder of folders) {
      if (this.#watchers.has(folder)) continue;
      const watcher = watch(folder, (_event, name) => {
        if (name === null || this.#closed) return;
        const changed = [...this.#files].some(
          (file) => dirname(file) === folder && basename(file) === name.toString(),
        );
        if (changed) this.#schedule();
      });
      watcher.on('error', () => undefined); // a folder that went away: the next load says why
      this.#watchers.set(folder, watcher);
    }
  }

  /** Stops watching. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      // One load at a time, in the order of the saves.
      this.#loading = this.#loading.then(() => this.#reload());
    }, settleMs);
  }

  async #reload(): Promise<void> {
    if (this.#closed) return;
    try {
      const loaded = await loadConfigFile(this.#path);
      await this.#handlers.onReload(loaded);
      this.watch(loaded.files);
    } catch (error) {
      const message =
        error instanceof ConfigFileError
          ? error.problems.join('\n')
          : error instanceof Error
            ? error.message
            : String(error);
      this.#handlers.onError(message);
    }
  }
}
