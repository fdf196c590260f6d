import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';

/** A public key's algorithm: RSA keys verify RS256, P-256 keys ES256. */
export type PublicKeyAlgorithm = 'RS256' | 'ES256';

/** A JWK of a set, as read: its `kid` (when named) and the algorithm its type verifies. */
export interface SetKey {
  kid: string | undefined;
  algorithm: PublicKeyAlgorithm;
  key: KeyObject;
}

/** Where end-user tokens' keys come from: a JSON file read at start, or a URL fetched again and again. */
export type JwksLocation =
  | { kind: 'file'; path: string; keys: SetKey[] }
  | { kind: 'url'; url: URL };

/** The outcome of reading key material: a value, or why it cannot be used. */
export type Read<Value> = { ok: true; value: Value } | { ok: false; problem: string };

/**
 * An RS256 or ES256 public key from PEM text (`\n` escapes allowed, as one-line variables
 * carry them) or from a PEM file's path.
 * @example
 * readPublicKey('/etc/yeoul/issuer.pem'); // { ok: true, value: { key, algorithm: 'RS256' } }
 */
export function readPublicKey(
  value: string,
): Read<{ key: KeyObject; algorithm: PublicKeyAlgorithm }> {
  let pem = value.replaceAll('\\n', '\n');
  if (!pem.startsWith('-----BEGIN')) {
    try {
      pem = readFileSync(value, 'utf8');
    } catch (error) {
      return { ok: false, problem: `cannot read the file ${value}: ${reasonOf(error)}` };
    }
  }
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch {
    return { ok: false, problem: 'is not a PEM public key (-----BEGIN PUBLIC KEY-----)' };
  }
  const algorithm = algorithmOf(key);
  if (algorithm === undefined) {
    return { ok: false, problem: 'must be an RSA or a P-256 (EC) public key' };
  }
  return { ok: true, value: { key, algorithm } };
}

/**
 * A JWK Set's location: an `https://` URL (`http://` only on a loopback address), or the
 * path of a JSON file `{"keys": [...]}` whose RSA and P-256 keys are read now.
 */
export function readJwksLocation(value: string): Read<JwksLocation> {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return { ok: false, problem: 'is not a valid URL' };
    }
    if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname))) {
      return { ok: true, value: { kind: 'url', url } };
    }
    return { ok: false, problem: 'must be an https:// URL (http:// only on a loopback address)' };
  }
  let text: string;
  try {
    text = readFileSync(value, 'utf8');
  } catch (error) {
    return { ok: false, problem: `cannot read the file ${value}: ${reasonOf(error)}` };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, problem: `the file ${value} is not JSON` };
  }
  const keys = parseJwks(parsed);
  return keys.ok
    ? { ok: true, value: { kind: 'file', path: value, keys: keys.value } }
    : { ok: false, problem: `the file ${value}: ${keys.problem}` };
}

/** The usable keys of a JWK Set (`{"keys": [...]}`): RSA and P-256 keys; others are skipped. */
export function parseJwks(value: unknown): Read<SetKey[]> {
  const listed = (value as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(listed)) return { ok: false, problem: 'is not a JWK Set {"keys": [...]}' };
  const keys: SetKey[] = [];
  for (const jwk of listed) {
    if (typeof jwk !== 'object' || jwk === null) continue;
    const { use, kid } = jwk as { use?: unknown; kid?: unknown };
    if (use !== undefined && use !== 'sig') continue;
    let key: KeyObject;
    try {
      key = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
    } catch {
      continue;
    }
    const algorithm = algorithmOf(key);
    if (algorithm === undefined || key.type !== 'public') continue;
    keys.push({ kid: typeof kid === 'string' ? kid : undefined, algorithm, key });
  }
  if (keys.length === 0 && listed.length > 0) {
    return { ok: false, problem: 'holds no RSA or P-256 (EC) public signing key' };
  }
  return { ok: true, value: keys };
}

function algorithmOf(key: KeyObject): PublicKeyAlgorithm | undefined {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') {
    return 'ES256';
  }
  return undefined;
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host === '::1') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES') return 'permission denied';
  if (code === 'EISDIR') return 'it is a folder';
  return error instanceof Error ? error.message : String(error);
}
