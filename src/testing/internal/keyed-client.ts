/** A JSON answer of the API: its status and parsed body (undefined when empty). */
export interface KeyedResponse {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
  body: any;
}

/**
 * A tiny HTTP client acting as one API key's owner, for tests of owner isolation:
 * `call(method, path, body?)` sends JSON with `Authorization: Bearer <key>`.
 * @example
 * const a = keyedClient(server.url, 'key-a');
 * await a('PUT', '/api/memory/profile/name', { value: '철수' });
 */
export function keyedClient(baseUrl: string, key: string) {
  return async (method: string, path: string, body?: unknown): Promise<KeyedResponse> => {
    const response = await fetch(baseUrl + path, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
}
