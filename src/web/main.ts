import { render } from 'preact';
import { takeAddressToken } from './api/address-token.ts';
import { setApiKey } from './api/api-client.ts';
import { App } from './components/app.ts';
import { html } from './html.ts';
import { locale } from './i18n.ts';

// The console's entry module (index.html loads it). First of all, a token handed over in the
// address (`/#token=…`) becomes this browser session's credential and leaves the address bar,
// before the page renders, requests or reports anything (the imports above read no address).
const addressToken = takeAddressToken(window);
if (addressToken) setApiKey(addressToken);
// A link with a token opened in a tab that already shows the console changes only the
// fragment: take that token too, and start afresh with it.
window.addEventListener('hashchange', () => {
  const token = takeAddressToken(window);
  if (token === null) return;
  setApiKey(token);
  location.reload();
});
// The page speaks the browser's language.
document.documentElement.lang = locale;
const root = document.getElementById('app');
if (root) render(html`<${App} />`, root);
