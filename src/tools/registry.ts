import { z } from 'zod';
import { ToolRegistrationError } from './errors/tool-registration-error.ts';
import type { Permission, ToolDefinition, ToolEnvironment } from './types.ts';

/** A tool as a model is told about it: name, description, JSON Schema of its input. */
export interface ToolDescription {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

const namePattern = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * The tools a server offers, with the permission each runs under. A registry may extend
 * another (`extend`: a config file's tools over the built-in and MCP ones) or offer only
 * some of its tools (`only`: an agent's `tools` setting); such views see the tools and
 * permissions of the registry below them as they change.
 */
export class ToolRegistry {
  #tools = new Map<string, ToolDefinition<unknown>>();
  #permissions = new Map<string, Permission>();
  /** The registry this one extends or narrows, if any. */
  #parent: ToolRegistry | undefined;
  /** The names this view offers (`only`); undefined offers every tool. */
  #only: ReadonlySet<string> | undefined;
  /** Bumped whenever a tool or permission of this registry changes. */
  #changes = 0;
  /** Descriptions per environment, with the version they were made at. */
  #described = new WeakMap<ToolEnvironment, { at: number; list: ToolDescription[] }>();

  /**
   * A registry with `tools` of its own over this one's: this registry's tools (and the
   * ones it gains later, such as an MCP server's) stay visible through it; a permission set
   * on it applies to it alone.
   */
  extend(tools: readonly ToolDefinition<unknown>[]): ToolRegistry {
    const child = new ToolRegistry();
    child.#parent = this;
    for (const tool of tools) child.register(tool);
    return child;
  }

  /**
   * A view offering only the named tools (an agent's `tools` setting). A call to a tool
   * outside it is an unknown tool.
   */
  only(names: readonly string[]): ToolRegistry {
    const view = new ToolRegistry();
    view.#parent = this;
    view.#only = new Set(names);
    return view;
  }

  /** Adds a tool; its name must be unique and snake_case. */
  register<Input>(tool: ToolDefinition<Input>): this {
    if (!namePattern.test(tool.name)) {
      throw new ToolRegistrationError({
        toolName: tool.name,
        reason: 'names are snake_case, 1–64 characters',
      });
    }
    if (this.#tools.has(tool.name) || this.#parent?.get(tool.name) !== undefined) {
      throw new ToolRegistrationError({
        toolName: tool.name,
        reason: 'a tool with that name is registered already',
      });
    }
    this.#tools.set(tool.name, tool as ToolDefinition<unknown>);
    this.#changes += 1;
    return this;
  }

  /**
   * Removes a tool and its permission override (tools that come and go: an MCP server's).
   * False when there was no such tool.
   */
  unregister(name: string): boolean {
    const removed = this.#tools.delete(name);
    this.#permissions.delete(name);
    if (removed) this.#changes += 1;
    return removed;
  }

  /**
   * Starts the named tools' workers ahead of their first call (the calculator's thread
   * takes about a second to load mathjs); resolves when all are ready.
   */
  async warmUp(names: string[]): Promise<void> {
    await Promise.all(names.map((name) => this.get(name)?.warmUp?.()));
  }

  /** Overrides a tool's permission (for example from configuration). */
  setPermission(name: string, permission: Permission): this {
    if (this.get(name) === undefined) {
      throw new ToolRegistrationError({
        toolName: name,
        reason: 'no such tool to set a permission on',
      });
    }
    this.#permissions.set(name, permission);
    this.#changes += 1;
    return this;
  }

  /** The permission a tool runs under now. */
  permissionOf(name: string): Permission {
    const own = this.#permissions.get(name);
    if (own !== undefined) return own;
    const tool = this.#tools.get(name);
    if (tool !== undefined) return tool.permission ?? 'allow';
    return this.#parent?.permissionOf(name) ?? 'allow';
  }

  get(name: string): ToolDefinition<unknown> | undefined {
    if (this.#only !== undefined && !this.#only.has(name)) return undefined;
    return this.#tools.get(name) ?? this.#parent?.get(name);
  }

  /** Every registered tool's name (that this view offers), available or not. */
  names(): string[] {
    const inherited = (this.#parent?.names() ?? []).filter((name) => !this.#tools.has(name));
    const all = [...this.#tools.keys(), ...inherited];
    return this.#only === undefined ? all : all.filter((name) => this.#only?.has(name));
  }

  /** The tools usable in `env`: available, not denied, and offered. */
  available(env: ToolEnvironment): ToolDefinition<unknown>[] {
    return this.names()
      .map((name) => this.get(name) as ToolDefinition<unknown>)
      .filter(
        (tool) => this.permissionOf(tool.name) !== 'deny' && (tool.isAvailable?.(env) ?? true),
      );
  }

  /** Changes to this registry and the ones below it, for caches. */
  #version(): number {
    return this.#changes + (this.#parent ? this.#parent.#version() : 0);
  }

  /** Names, descriptions and JSON Schemas of the usable tools, for a model's tool list. */
  describe(env: ToolEnvironment): ToolDescription[] {
    // Every model call asks for this; building JSON Schemas each time costs ~0.5 ms.
    const version = this.#version();
    const cached = this.#described.get(env);
    if (cached?.at === version) return cached.list;
    const described = this.available(env).map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema:
        tool.inputJsonSchema ??
        (z.toJSONSchema(tool.inputSchema, { io: 'input' }) as Record<string, unknown>),
    }));
    this.#described.set(env, { at: version, list: described });
    return described;
  }
}
