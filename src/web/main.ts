import { render } from 'preact';
import { App } from './components/app.ts';
import { html } from './html.ts';
import { locale } from './i18n.ts';

// The console's entry module (index.html loads it): the page speaks the browser's language.
document.documentElement.lang = locale;
const root = document.getElementById('app');
if (root) render(html`<${App} />`, root);
