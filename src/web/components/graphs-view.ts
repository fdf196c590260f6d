import { useEffect, useState } from 'preact/hooks';
import { api, toErrorInfo } from '../api/api-client.ts';
import type { ErrorInfo } from '../api/types.ts';
import { html } from '../html.ts';
import { t } from '../i18n.ts';
import { ErrorView } from './error-view.ts';

/** A graph as GET /api/graphs lists it (built-in or from the config file). */
interface GraphSource {
  name: string;
  mermaid: string;
}

type Mermaid = typeof import('mermaid')['default'];
let mermaidModule: Promise<Mermaid> | undefined;

/** Mermaid, loaded on first use only (it is far bigger than the rest of the page). */
function loadMermaid(): Promise<Mermaid> {
  mermaidModule ??= import('mermaid').then(({ default: mermaid }) => {
    const dark = matchMedia('(prefers-color-scheme: dark)').matches;
    mermaid.initialize({
      startOnLoad: false,
      securityLevel: 'strict',
      theme: dark ? 'dark' : 'default',
      fontFamily: 'inherit',
    });
    return mermaid;
  });
  return mermaidModule;
}

/** One graph drawn from its Mermaid text (Mermaid sanitizes its SVG in strict mode). */
function GraphFigure(props: { graph: GraphSource }) {
  const [svg, setSvg] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    loadMermaid()
      .then((mermaid) => mermaid.render(`graph-${props.graph.name}`, props.graph.mermaid))
      .then((result) => live && setSvg(result.svg))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [props.graph.mermaid]);
  return html`
    <figure class="graph-figure">
      <figcaption><h3>${props.graph.name}</h3></figcaption>
      ${svg ? html`<div class="graph" data-testid="graph" data-graph=${props.graph.name} role="img" aria-label=${`${props.graph.name} graph`} dangerouslySetInnerHTML=${{ __html: svg }}></div>` : null}
      ${!svg && !failed ? html`<p class="muted">${t('loading')}</p>` : null}
      ${failed ? html`<p class="muted">${t('graphFailed')}</p>` : null}
      <details class="graph-source">
        <summary>Mermaid</summary>
        <pre class="tool-text" tabindex="0">${props.graph.mermaid}</pre>
      </details>
    </figure>
  `;
}

/** The chat, react and ops graphs, as the server compiles them. */
export function GraphsView(props: { version: number }) {
  const [graphs, setGraphs] = useState<GraphSource[] | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);
  useEffect(() => {
    let live = true;
    api.graphs
      .list()
      .then((body) => live && setGraphs(body.graphs))
      .catch((reason: unknown) => live && setError(toErrorInfo(reason)));
    return () => {
      live = false;
    };
  }, [props.version]);
  return html`
    <section class="graphs-view" aria-labelledby="graphs-title">
      <h2 id="graphs-title">${t('graphs')}</h2>
      ${error ? html`<${ErrorView} error=${error} />` : null}
      ${graphs === null && !error ? html`<p class="muted">${t('loading')}</p>` : null}
      <div class="graph-grid">
        ${(graphs ?? []).map((graph) => html`<${GraphFigure} key=${graph.name} graph=${graph} />`)}
      </div>
    </section>
  `;
}
