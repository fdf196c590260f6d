import type { PiiSettings } from './compiled-guardrail.ts';
import { type PiiKind, piiKinds } from './pii/find-pii.ts';
import type { DetectorAction } from './types.ts';

/** Each detector's action when `pii`'s options leave it out. */
export const piiDefaults: Readonly<Record<PiiKind, DetectorAction>> = {
  rrn: 'redact',
  card: 'block',
  phone: 'redact',
  email: 'redact',
  account: 'redact',
  ip: 'off',
};

/** The kinds restored by default. */
const defaultRestoreKinds: readonly PiiKind[] = ['email', 'phone'];

const detectorActions: readonly DetectorAction[] = ['block', 'redact', 'warn', 'off'];
const actionWords = '"block", "redact", "warn", "off"';

/** A plain object (what options are): not an array, not a RegExp. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof RegExp)
  );
}

function isPiiKind(value: unknown): value is PiiKind {
  return typeof value === 'string' && (piiKinds as readonly string[]).includes(value);
}

/**
 * Reads `pii`'s options (each detector an action or `{action, …}`, `restore`, `name`) into its
 * settings, or says every problem with its path (`guardrails.input[0].card: one of …`).
 */
export function compilePii(
  options: Record<string, unknown>,
  path: string,
  configTools: readonly string[],
): { settings?: PiiSettings; problems: string[] } {
  const problems: string[] = [];
  const actions: Record<PiiKind, DetectorAction> = { ...piiDefaults };
  let rrnChecksum = true;
  let restoreKinds: readonly PiiKind[] = defaultRestoreKinds;
  let restoreTools: readonly string[] = configTools;
  for (const [key, value] of Object.entries(options)) {
    if (key === 'name') continue;
    if (key === 'restore') {
      const restore = readRestore(value, `${path}.restore`, problems);
      if (restore) {
        restoreKinds = restore.kinds ?? restoreKinds;
        restoreTools = restore.tools ?? restoreTools;
      }
      continue;
    }
    if (!isPiiKind(key)) {
      problems.push(
        `${path}: unknown option "${key}" (detectors: ${piiKinds.join(', ')}; also restore, name)`,
      );
      continue;
    }
    if (typeof value === 'string') {
      if ((detectorActions as readonly string[]).includes(value))
        actions[key] = value as DetectorAction;
      else problems.push(`${path}.${key}: one of ${actionWords}`);
      continue;
    }
    if (!isRecord(value)) {
      problems.push(
        `${path}.${key}: one of ${actionWords}, or {action${key === 'rrn' ? ', checksum' : ''}}`,
      );
      continue;
    }
    for (const [setting, settingValue] of Object.entries(value)) {
      if (setting === 'action') {
        if ((detectorActions as readonly unknown[]).includes(settingValue))
          actions[key] = settingValue as DetectorAction;
        else problems.push(`${path}.${key}.action: one of ${actionWords}`);
      } else if (setting === 'checksum' && key === 'rrn') {
        if (typeof settingValue === 'boolean') rrnChecksum = settingValue;
        else problems.push(`${path}.rrn.checksum: true or false`);
      } else problems.push(`${path}.${key}: unknown setting "${setting}"`);
    }
  }
  if (problems.length > 0) return { problems };
  const kinds = new Set(piiKinds.filter((kind) => actions[kind] !== 'off'));
  return {
    settings: {
      actions,
      rrnChecksum,
      restoreKinds: new Set(restoreKinds),
      restoreTools: new Set(restoreTools),
      scan: { kinds, rrnChecksum },
    },
    problems,
  };
}

/** `restore`: `false` (nothing restored) or `{kinds?, tools?}`. */
function readRestore(
  value: unknown,
  path: string,
  problems: string[],
): { kinds?: PiiKind[]; tools?: string[] } | undefined {
  if (value === false) return { kinds: [], tools: [] };
  if (!isRecord(value)) {
    problems.push(`${path}: false, or {kinds?, tools?}`);
    return undefined;
  }
  const read: { kinds?: PiiKind[]; tools?: string[] } = {};
  for (const key of Object.keys(value)) {
    if (key !== 'kinds' && key !== 'tools') problems.push(`${path}: unknown option "${key}"`);
  }
  if (value.kinds !== undefined) {
    if (!Array.isArray(value.kinds))
      problems.push(`${path}.kinds: a list of ${piiKinds.join(', ')}`);
    else {
      value.kinds.forEach((kind, index) => {
        if (!isPiiKind(kind))
          problems.push(
            `${path}.kinds[${index}]: one of ${piiKinds.map((name) => `"${name}"`).join(', ')}`,
          );
      });
      read.kinds = value.kinds.filter(isPiiKind);
    }
  }
  if (value.tools !== undefined) {
    if (
      !Array.isArray(value.tools) ||
      !value.tools.every((tool) => typeof tool === 'string' && tool !== '')
    ) {
      problems.push(`${path}.tools: a list of tool names`);
    } else read.tools = value.tools as string[];
  }
  return read;
}
