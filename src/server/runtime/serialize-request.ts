/** Query parameters whose values are credentials by their name (`access_token`, `api_key`, …). */
const credentialParameter = /token|key|secret|password|passwd|auth|jwt|signature|session_id/i;
/** A JWT anywhere in a URL: three base64url parts, the first a JSON header. */
const jwtText = /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;

/** The fields of a request a log line carries, as Fastify's own serializer gives them. */
interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number | undefined } | null;
}

/**
 * A request as its log lines show it — Fastify's fields, with its URL stripped of
 * credentials: Yeoul never reads them from a URL, but a client that put one there must not
 * see it written to the logs (values of credential-named query parameters, and any JWT).
 * @example
 * serializeRequest({ method: 'GET', url: '/api/me?access_token=abc' }).url;
 * // '/api/me?access_token=[redacted]'
 */
export function serializeRequest(request: LoggedRequest) {
  return {
    method: request.method,
    url: urlWithoutCredentials(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

function urlWithoutCredentials(url: string): string {
  const [path = '', query] = url.split(/\?(.*)/s, 2);
  const redactedQuery = query
    ?.split('&')
    .map((pair) => {
      const name = pair.split('=')[0] ?? '';
      return credentialParameter.test(decodeSafely(name)) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  const rebuilt = redactedQuery === undefined ? path : `${path}?${redactedQuery}`;
  return rebuilt.replace(jwtText, '[redacted]');
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
