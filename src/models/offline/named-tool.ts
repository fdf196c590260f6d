/** A tool as the offline model sees it: its name and its input's JSON Schema. */
export type ToolSchemas = Map<string, Record<string, unknown>>;

/** Request words around a tool's argument: "조회해줘", "please", "run". */
const requestWords =
  /\s*(?:을|를|으로|로)?\s*(?:조회|실행|확인|호출|검색)?\s*(?:해\s*(?:줘|주세요|줄래|봐)|하기|해)\s*[?？!.]*$|^\s*(?:please\s+)?(?:run|call|use|check)\s+|\s*,?\s*please\s*[?!.]*$/gi;

/**
 * A call of the tool a message names ("order_status A-1", "A-1 order_status 조회해줘"),
 * among the tools offered — a team's own tools included. The tool's first string
 * parameter takes the rest of the message; other required parameters come from
 * `key=value` words (numbers and true/false as such). Undefined when no offered tool is
 * named, or a required parameter is left without a value.
 */
export function namedToolCall(
  text: string,
  tools: ToolSchemas,
): { tool: string; args: Record<string, unknown> } | undefined {
  if (tools.size === 0 || text.length > 2000) return undefined;
  const words = text.split(/\s+/).filter((word) => word.length > 0);
  const named = words.find((word) => tools.has(word.replace(/[?？!.,:]+$/, '')));
  if (named === undefined) return undefined;
  const tool = named.replace(/[?？!.,:]+$/, '');
  const schema = tools.get(tool) ?? {};
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const args: Record<string, unknown> = {};
  const rest: string[] = [];
  for (const word of words) {
    if (word === named) continue;
    const pair = /^([A-Za-z_][\w-]*)=(.+)$/.exec(word);
    if (pair?.[1] && pair[2] !== undefined && pair[1] in properties) {
      args[pair[1]] = valueFor(pair[2], properties[pair[1]]?.type);
    } else rest.push(word);
  }
  const first = Object.entries(properties).find(
    ([name, property]) => property.type === 'string' && !(name in args),
  );
  const remainder = rest.join(' ').replace(requestWords, '').trim();
  if (first && remainder !== '') args[first[0]] = remainder;
  for (const name of required) if (!(name in args)) return undefined;
  return { tool, args };
}

function valueFor(text: string, type: unknown): unknown {
  if ((type === 'number' || type === 'integer') && Number.isFinite(Number(text))) {
    return Number(text);
  }
  if (type === 'boolean' && /^(?:true|false)$/i.test(text)) return text.toLowerCase() === 'true';
  return text;
}

/**
 * "write 'hello' to notes.txt", "save the plan into docs/plan.md", "notes.txt에 hello 저장해줘":
 * the file and the text to write, for `write_file` (so approvals can be tried offline).
 */
export function fileToWrite(text: string): { path: string; content: string } | undefined {
  // A request to write a file is one short sentence; a long message is never read as one.
  if (text.length > 500) return undefined;
  const english =
    /\b(?:write|save|put)\s+(["'“‘]?)(.+?)\1\s+(?:to|into|in)\s+(?:the\s+file\s+)?([\w./-]+\.\w+)\s*[.!?]*$/i.exec(
      text,
    );
  if (english?.[2] && english[3]) return { path: english[3], content: english[2] };
  const korean =
    /([\w./-]+\.\w+)\s*(?:에|파일에)\s*(["'“‘]?)(.+?)\2\s*(?:이?라고|을|를)?\s*(?:저장|써|쓰|기록)/.exec(
      text,
    );
  if (korean?.[1] && korean[3]) return { path: korean[1], content: korean[3] };
  return undefined;
}
