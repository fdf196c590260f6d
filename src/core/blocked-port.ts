/**
 * The ports fetch refuses to connect to, whatever the host: the WHATWG Fetch standard's
 * "bad port" list (https://fetch.spec.whatwg.org/#port-blocking), as Node's fetch applies it.
 */
const badPorts = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102,
  103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465,
  512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993,
  995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668,
  6669, 6679, 6697, 10080,
]);

/**
 * The port of an http(s) URL that fetch will never connect to (a "bad port"), or undefined
 * when fetch may reach it (or the text is not such a URL).
 * @example
 * blockedPort('http://127.0.0.1:6000/v1'); // 6000
 */
export function blockedPort(url: string | URL): number | undefined {
  const parsed = typeof url === 'string' ? URL.parse(url) : url;
  if (parsed === null || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
    return undefined;
  // An explicit default port (":80" on http) parses to '', the port fetch then uses.
  const port = Number(parsed.port);
  return parsed.port !== '' && badPorts.has(port) ? port : undefined;
}

/** Why a blocked port cannot be used, in words that say what to do. */
export function blockedPortReason(port: number): string {
  return `port ${port} is blocked by fetch (a "bad port" in the WHATWG Fetch standard, reserved for another protocol), so no request can reach it; choose another port`;
}
