import ipaddr from 'ipaddr.js';

/** An IPv4 or IPv6 address as ipaddr.js parses it. */
export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

/** One entry of the webhook allow-list: a name, `*.domain`, an address or a range, with an optional port. */
export type WebhookHostEntry =
  | { kind: 'name'; name: string; port?: number }
  | { kind: 'subdomains'; domain: string; port?: number }
  | { kind: 'range'; address: IpAddress; prefixLength: number; port?: number };

/** A URL's host as WHATWG URL normalises it: a lower-case name or an address (odd IPv4 spellings read). */
export type UrlHost = { kind: 'name'; name: string } | { kind: 'address'; address: IpAddress };

const namePattern =
  /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,62})(?:\.[a-z0-9_](?:[a-z0-9_-]{0,62}))*$/;

/**
 * The host of a URL's `hostname`: an IPv4-mapped IPv6 address is read as its IPv4 address, so
 * every spelling of one address compares equal.
 */
export function urlHostOf(hostname: string): UrlHost {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  if (ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare))) {
    return { kind: 'address', address: canonicalAddress(ipaddr.parse(bare)) };
  }
  return { kind: 'name', name: bare.replace(/\.$/, '') };
}

/** The IPv4 address an IPv4-mapped IPv6 address stands for; any other address as it is. */
export function canonicalAddress(address: IpAddress): IpAddress {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address;
}

/**
 * Whether an address is public: not loopback, private (10/8, 172.16/12, 192.168/16, fc00::/7),
 * link-local (169.254/16, fe80::/10), shared (100.64/10), 0/8, `::`, multicast, nor any other
 * special-purpose range (documentation, benchmarking, NAT64, 6to4, Teredo, site-local, …).
 */
export function isPublicAddress(address: IpAddress): boolean {
  const canonical = canonicalAddress(address);
  if (canonical.kind() === 'ipv6' && canonical.match(ipaddr.IPv6.parse('fec0::'), 10)) return false;
  return canonical.range() === 'unicast';
}

/** Reads one `YEOUL_WEBHOOK_HOSTS` entry, or undefined when it is no host, pattern, address or range. */
export function parseHostEntry(text: string): WebhookHostEntry | undefined {
  const split = splitPort(text.trim());
  if (split === undefined) return undefined;
  const { host, port } = split;
  const withPort = (entry: WebhookHostEntry): WebhookHostEntry =>
    port === undefined ? entry : { ...entry, port };
  const slash = host.indexOf('/');
  if (slash >= 0) {
    const address = addressOf(host.slice(0, slash));
    const lengthText = host.slice(slash + 1);
    if (address === undefined || !/^\d{1,3}$/.test(lengthText)) return undefined;
    const prefixLength = Number(lengthText);
    if (prefixLength > (address.kind() === 'ipv4' ? 32 : 128)) return undefined;
    return withPort({ kind: 'range', ...canonicalRange(address, prefixLength) });
  }
  const address = addressOf(host);
  if (address !== undefined) {
    const canonical = canonicalAddress(address);
    const prefixLength = canonical.kind() === 'ipv4' ? 32 : 128;
    return withPort({ kind: 'range', address: canonical, prefixLength });
  }
  if (host.startsWith('*.')) {
    const domain = nameOf(host.slice(2));
    return domain === undefined ? undefined : withPort({ kind: 'subdomains', domain });
  }
  const name = nameOf(host);
  return name === undefined ? undefined : withPort({ kind: 'name', name });
}

/** Whether an allow-list admits a URL's host and port (a name only by being listed, never by its addresses). */
export function hostListed(
  entries: readonly WebhookHostEntry[],
  host: UrlHost,
  port: number,
): boolean {
  return entries.some((entry) => {
    if (entry.port !== undefined && entry.port !== port) return false;
    if (entry.kind === 'range') {
      return (
        host.kind === 'address' &&
        host.address.kind() === entry.address.kind() &&
        host.address.match(entry.address, entry.prefixLength)
      );
    }
    if (host.kind !== 'name') return false;
    return entry.kind === 'name'
      ? host.name === entry.name
      : host.name.endsWith(`.${entry.domain}`);
  });
}

/** `host:port` apart: `[v6]:port`, `name:port`, a bare IPv6 address (no port) or a host alone. */
function splitPort(text: string): { host: string; port?: number } | undefined {
  const bracketed = /^\[([^\]]+)\](\/\d+)?(?::(\d+))?$/.exec(text);
  if (bracketed) return withPortText(`${bracketed[1]}${bracketed[2] ?? ''}`, bracketed[3]);
  const colons = text.split(':').length - 1;
  if (colons === 1) {
    const [host, port] = text.split(':') as [string, string];
    return withPortText(host, port);
  }
  return text === '' ? undefined : { host: text };
}

function withPortText(host: string, portText: string | undefined) {
  if (portText === undefined) return { host };
  if (!/^\d{1,5}$/.test(portText) || Number(portText) < 1 || Number(portText) > 65_535) return;
  return { host, port: Number(portText) };
}

/** An address in any spelling WHATWG URL reads (2130706433, 0x7f.1, IPv6, IPv4-mapped IPv6). */
function addressOf(text: string): IpAddress | undefined {
  if (text.includes(':')) return ipaddr.IPv6.isValid(text) ? ipaddr.IPv6.parse(text) : undefined;
  const hostname = urlHostname(text);
  if (hostname === undefined || !ipaddr.IPv4.isValidFourPartDecimal(hostname)) return undefined;
  return ipaddr.IPv4.parse(hostname);
}

/** A host name as URLs carry it (lower case, punycode), or undefined when it is none. */
function nameOf(text: string): string | undefined {
  const hostname = urlHostname(text);
  if (hostname === undefined || ipaddr.IPv4.isValidFourPartDecimal(hostname)) return undefined;
  const name = hostname.replace(/\.$/, '');
  return namePattern.test(name) ? name : undefined;
}

function urlHostname(text: string): string | undefined {
  if (!/^[^\s/?#@\\[\]:]+$/.test(text)) return undefined;
  try {
    return new URL(`http://${text}/`).hostname;
  } catch {
    return undefined;
  }
}

/** A range's network address (the bits past the prefix cleared); an IPv4-mapped range as IPv4. */
function canonicalRange(address: IpAddress, prefixLength: number) {
  if (address.kind() === 'ipv6' && prefixLength >= 96) {
    const v6 = address as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) {
      return { address: v6.toIPv4Address() as IpAddress, prefixLength: prefixLength - 96 };
    }
  }
  return { address, prefixLength };
}
