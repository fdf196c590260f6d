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

/** The tools a server offers, with the permission each runs under. */
export class ToolRegistry {
  #tools = new Map<string, ToolDefinition<unknown>>();
  #permissions = new Map<string, Permission>();
  /** Descriptions per environment, dropped whenever a tool or permission changes. */
  #described = new WeakMap<ToolEnvironment, ToolDescription[]>();

  /** Adds a tool; its name must be unique and snake_case. */
  register<Input>(tool: ToolDefinition<Input>): this {
    if (!namePattern.test(tool.name)) {
      throw new ToolRegistrationError({
        toolName: tool.name,
        reason: 'names are snake_case, 1–64 characters',
      });
    }
    if (this.#tools.has(tool.name)) {
      throw new ToolRegistrationError({
        toolName: tool.name,
        reason: 'a tool with that name is registered already',
      });
    }
    this.#tools.set(tool.name, tool as ToolDefinition<unknown>);
    this.#described = new WeakMap();
    return this;
  }

  /**
   * Removes a tool and its permission override (tools that come and go: an MCP server's).
   * False when there was no such tool.
   */
  unregister(name: string): boolean {
    const removed = this.#tools.delete(name);
    this.#permissions.delete(name);
    if (removed) this.#described = new WeakMap();
    return removed;
  }

  /**
   * Starts the named tools' workers ahead of their first call (the calculator's thread
   * takes about a second to load mathjs); resolves when all are ready.
   */
  async warmUp(names: string[]): Promise<void> {
    await Promise.all(names.map((name) => this.#tools.get(name)?.warmUp?.()));
  }

  /** Overrides a tool's permission (for example from configuration). */
  setPermission(name: string, permission: Permission): this {
    if (!this.#tools.has(name)) {
      throw new ToolRegistrationError({
        toolName: name,
        reason: 'no such tool to set a permission on',
      });
    }
    this.#permissions.set(name, permission);
    this.#described = new WeakMap();
    return this;
  }

  /** The permission a tool runs under now. */
  permissionOf(name: string): Permission {
    return this.#permissions.get(name) ?? this.#tools.get(name)?.permission ?? 'allow';
  }

  get(name: string): ToolDefinition<unknown> | undefined {
    return this.#tools.get(name);
  }

  /** Every registered tool's name, available or not. */
  names(): string[] {
    return [...this.#tools.keys()];
  }

  /** The tools usable in `env`: available and not denied. */
  available(env: ToolEnvironment): ToolDefinition<unknown>[] {
    return [...this.#tools.values()].filter(
      (tool) => this.permissionOf(tool.name) !== 'deny' && (tool.isAvailable?.(env) ?? true),
    );
  }

  /** Names, descriptions and JSON Schemas of the usable tools, for a model's tool list. */
  describe(env: ToolEnvironment): ToolDescription[] {
    // Every model call asks for this; building JSON Schemas each time costs ~0.5 ms.
    const cached = this.#described.get(env);
    if (cached) return cached;
    const described = this.available(env).map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema:
        tool.inputJsonSchema ??
        (z.toJSONSchema(tool.inputSchema, { io: 'input' }) as Record<string, unknown>),
    }));
    this.#described.set(env, described);
    return described;
  }
}
