/** The fragment parameter a link hands the console a credential in: `/#token=<token>`. */
const tokenParameter = 'token=';

/** The page's address and history, as `takeAddressToken` reads and rewrites them. */
export interface AddressBar {
  readonly location: { readonly href: string };
  readonly history: {
    readonly state: unknown;
    replaceState(state: unknown, unused: string, url: string): void;
  };
}

/** A fragment part's value, percent-decoded when it can be (a `+` stays a `+`). */
function decodePart(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * Takes the credential a link carries in the address's fragment (`/#token=<token>`) and
 * removes it from the address bar at once, replacing the history entry so that Back does not
 * bring it back; the fragment's other parts stay. A fragment never reaches the server, so
 * neither the page request nor a Referer carries the token. Null when there is none (or it
 * is empty: the address is still cleaned).
 * @example
 * const token = takeAddressToken(window); // at https://yeoul.example/#token=eyJ… → 'eyJ…'
 */
export function takeAddressToken(bar: AddressBar): string | null {
  const href = bar.location.href;
  const hashAt = href.indexOf('#');
  if (hashAt < 0) return null;
  const parts = href.slice(hashAt + 1).split('&');
  const found = parts.find((part) => part.startsWith(tokenParameter));
  if (found === undefined) return null;
  const rest = parts.filter((part) => !part.startsWith(tokenParameter) && part !== '');
  const base = href.slice(0, hashAt);
  bar.history.replaceState(
    bar.history.state,
    '',
    rest.length > 0 ? `${base}#${rest.join('&')}` : base,
  );
  const token = decodePart(found.slice(tokenParameter.length)).trim();
  return token === '' ? null : token;
}
