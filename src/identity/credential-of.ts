/** Request headers as Node gives them: names in lower case, repeated ones as arrays. */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

/**
 * The key or token a request carries: `Authorization: Bearer <it>`, else `x-api-key: <it>`
 * (what LangGraph's SDK sends). Never taken from the URL.
 * @example
 * credentialOf({ authorization: 'Bearer abc' }); // 'abc'
 */
export function credentialOf(headers: RequestHeaders): string | undefined {
  const authorization = headers.authorization;
  if (typeof authorization === 'string') {
    const bearer = /^Bearer\s+(.+)$/i.exec(authorization)?.[1]?.trim();
    if (bearer) return bearer;
  }
  const apiKey = headers['x-api-key'];
  return typeof apiKey === 'string' && apiKey.trim() !== '' ? apiKey.trim() : undefined;
}

/** Whether a credential has a JWT's shape: three base64url parts (the last may be empty). */
export function looksLikeJwt(credential: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(credential);
}
