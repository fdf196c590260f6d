import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import {
  hostListed,
  type IpAddress,
  isPublicAddress,
  urlHostOf,
  type WebhookHostEntry,
} from './webhook-hosts.ts';

/** Resolves a host name to its addresses (every one, IPv4 and IPv6). */
export type HostResolver = (name: string) => Promise<string[]>;

/** What decides where webhooks may go: the allow-list (unset = public hosts only) and the resolver. */
export interface WebhookHostRule {
  /** `YEOUL_WEBHOOK_HOSTS` as read; undefined = any host whose every address is public. */
  hosts?: readonly WebhookHostEntry[] | undefined;
  /** How names are resolved (node:dns's `lookup` unless a test gives its own). */
  resolve?: HostResolver | undefined;
}

/** The host rule's answer for one URL: the addresses an attempt may connect to, or why none. */
export type HostCheck =
  | { allowed: true; addresses: IpAddress[] }
  | { allowed: false; reason: 'not_allowed' | 'unresolved'; message: string };

/** Resolves with node:dns (the system's resolver, /etc/hosts included), every address. */
export const systemResolver: HostResolver = async (name) =>
  (await lookup(name, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * Checks a webhook URL against the host rule. With an allow-list the URL's host must be listed
 * (a name by name, an address inside a listed range, the port when the entry gives one); a
 * listed name is resolved only when `connect` asks for its addresses. Without one, `localhost`
 * and every name whose addresses are not all public are refused, and so is a non-public address.
 * @example
 * const check = await checkWebhookHost(new URL('https://hooks.example.com/x'), {}, { connect: true });
 * if (check.allowed) connectTo(check.addresses[0]);
 */
export async function checkWebhookHost(
  url: URL,
  rule: WebhookHostRule,
  options: { connect: boolean },
): Promise<HostCheck> {
  const host = urlHostOf(url.hostname);
  const shown = url.host;
  const refuse = (why: string): HostCheck => ({
    allowed: false,
    reason: 'not_allowed',
    message: `webhook host ${shown} is not allowed: ${why}`,
  });
  if (rule.hosts !== undefined) {
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    if (!hostListed(rule.hosts, host, port)) return refuse('YEOUL_WEBHOOK_HOSTS does not list it');
    if (host.kind === 'address') return { allowed: true, addresses: [host.address] };
    return options.connect
      ? resolveName(host.name, rule, shown, () => true)
      : { allowed: true, addresses: [] };
  }
  if (host.kind === 'address') {
    return isPublicAddress(host.address)
      ? { allowed: true, addresses: [host.address] }
      : refuse(`${host.address.toString()} is not a public address`);
  }
  if (host.name === 'localhost' || host.name.endsWith('.localhost')) {
    return refuse('it is a loopback name');
  }
  return resolveName(host.name, rule, shown, isPublicAddress);
}

/** Resolves a name; every address must pass `admits` (a name with one bad address is refused whole). */
async function resolveName(
  name: string,
  rule: WebhookHostRule,
  shown: string,
  admits: (address: IpAddress) => boolean,
): Promise<HostCheck> {
  let texts: string[];
  try {
    texts = await (rule.resolve ?? systemResolver)(name);
  } catch (error) {
    const why = (error as { code?: string }).code ?? (error as Error).message;
    return {
      allowed: false,
      reason: 'unresolved',
      message: `webhook host ${shown} does not resolve (${why})`,
    };
  }
  const addresses = texts.filter((text) => ipaddr.isValid(text)).map((text) => ipaddr.parse(text));
  if (addresses.length === 0) {
    return {
      allowed: false,
      reason: 'unresolved',
      message: `webhook host ${shown} has no address`,
    };
  }
  const refused = addresses.find((address) => !admits(address));
  if (refused !== undefined) {
    return {
      allowed: false,
      reason: 'not_allowed',
      message: `webhook host ${shown} is not allowed: it resolves to ${refused.toString()}, not a public address`,
    };
  }
  return { allowed: true, addresses };
}
