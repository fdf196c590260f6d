import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { defineRoute, type Route, type RouteGroup } from '../http/define-route.ts';

/** Where the console's own files live (browser TypeScript, CSS, the page, the icon). */
const webRoot = join(import.meta.dirname, '..', '..', 'web');
/** The typed HTTP client (`yeoul/client`), which the console's modules import as `../../client/`. */
const clientRoot = join(import.meta.dirname, '..', '..', 'client');

/** A file as served: its bytes (TypeScript already stripped), gzipped copy and validator. */
interface Asset {
  key: string;
  body: Buffer;
  gzipped: Buffer;
  etag: string;
  type: string;
}

const contentTypes: Record<string, string> = {
  ts: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  html: 'text/html; charset=utf-8',
};

/** The browser modules the console imports by bare name (the page's import map points here). */
const vendorFiles: Record<string, () => string> = {
  'preact.mjs': () => resolvePackageFile('preact'),
  'preact-hooks.mjs': () => resolvePackageFile('preact/hooks'),
  'htm.mjs': () => resolvePackageFile('htm'),
  'marked.mjs': () => resolvePackageFile('marked'),
  'dompurify.mjs': () => resolvePackageFile('dompurify'),
};

/** Mermaid's browser build: one entry and the chunks it loads on demand. */
const mermaidDist = () => dirname(resolvePackageFile('mermaid'));
const mermaidFile = /^(?:mermaid\.esm\.min\.mjs|chunks\/mermaid\.esm\.min\/[A-Za-z0-9_.-]+\.mjs)$/;
/** Console files: lower-case kebab names in folders, no tests, no declaration files. */
const webFile = /^(?:[a-z0-9-]+\/)*[a-z0-9-]+\.(?:ts|css|svg)$/;
/** Client modules: TypeScript in the repository, JavaScript in the built package. */
const clientFile = /^(?:[a-z0-9-]+\/)*[a-z0-9-]+\.(?:ts|js)$/;

/**
 * GET / (the web console, with a Content-Security-Policy that allows no inline script
 * except the page's import map, by hash), /web/* (its modules, TypeScript served with the
 * types stripped) and /client/* (the typed client they use, likewise), /vendor/* (Preact,
 * htm, marked, DOMPurify and Mermaid from node_modules) and the favicon. No build step: files
 * are read, stripped and gzipped on first request and again whenever they change on disk.
 */
export function webRoutes(): RouteGroup {
  const assets = new AssetCache();
  // The console's files are not API operations: none of them is in /openapi.json, and their
  // request lines are logged at debug (a page load adds no info line).
  const fileRoute = (path: string, handler: Route['handler']) =>
    defineRoute({ method: 'GET', path, hidden: true, public: true, logLevel: 'debug', handler });

  const consolePage = fileRoute('/', async (request, reply) => {
    const page = assets.get(join(webRoot, 'index.html'));
    reply.header('content-security-policy', contentSecurityPolicy(page.body.toString('utf8')));
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-frame-options', 'DENY');
    return send(request, reply, page);
  });

  const favicon = async (request: FastifyRequest, reply: FastifyReply) =>
    send(request, reply, assets.get(join(webRoot, 'favicon.svg')));

  const modules = (
    [
      ['/web/*', webRoot, webFile],
      ['/client/*', clientRoot, clientFile],
    ] as const
  ).map(([prefix, root, pattern]) =>
    fileRoute(prefix, async (request, reply) => {
      const path = (request.params as { '*': string })['*'];
      if (!pattern.test(path) || path.endsWith('.test.ts') || path.endsWith('.d.ts'))
        return notFound(request, reply);
      const file = join(root, path);
      // The built package holds the client compiled (x.js beside x.d.ts): the console's
      // imports of x.ts get the same module.
      if (root === clientRoot && path.endsWith('.ts') && !existsSync(file)) {
        return sendFile(request, reply, file.replace(/\.ts$/, '.js'));
      }
      return sendFile(request, reply, file);
    }),
  );

  const mermaid = fileRoute('/vendor/mermaid/*', async (request, reply) => {
    const path = (request.params as { '*': string })['*'];
    if (!mermaidFile.test(path)) return notFound(request, reply);
    return sendFile(request, reply, join(mermaidDist(), path));
  });

  const vendor = fileRoute('/vendor/:name', async (request, reply) => {
    const { name } = request.params as { name: string };
    const resolve = Object.hasOwn(vendorFiles, name) ? vendorFiles[name] : undefined;
    if (resolve === undefined) return notFound(request, reply);
    return sendFile(request, reply, resolve());
  });

  function sendFile(request: FastifyRequest, reply: FastifyReply, path: string) {
    let asset: Asset;
    try {
      asset = assets.get(path);
    } catch {
      return notFound(request, reply);
    }
    return send(request, reply, asset);
  }

  return {
    routes: [
      consolePage,
      fileRoute('/favicon.svg', favicon),
      fileRoute('/favicon.ico', favicon),
      ...modules,
      mermaid,
      vendor,
    ],
  };
}

/** The page's policy: scripts from this origin only, plus the inline import map by its hash. */
export function contentSecurityPolicy(page: string): string {
  const importMap = /<script type="importmap">([\s\S]*?)<\/script>/.exec(page)?.[1];
  const hash = importMap
    ? ` 'sha256-${createHash('sha256').update(importMap).digest('base64')}'`
    : '';
  return [
    "default-src 'self'",
    `script-src 'self'${hash}`,
    // Mermaid draws its SVG with a <style> element and style attributes.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function send(request: FastifyRequest, reply: FastifyReply, asset: Asset) {
  reply.header('content-type', asset.type);
  reply.header('cache-control', 'no-cache');
  reply.header('etag', asset.etag);
  reply.header('vary', 'accept-encoding');
  reply.header('x-content-type-options', 'nosniff');
  if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
  if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) {
    reply.header('content-encoding', 'gzip');
    return reply.send(asset.gzipped);
  }
  return reply.send(asset.body);
}

function notFound(request: FastifyRequest, reply: FastifyReply) {
  return reply.code(404).send({ error: { code: 'not_found', message: `no file ${request.url}` } });
}

/** Files read once and kept until their size or modification time changes. */
class AssetCache {
  #assets = new Map<string, Asset>();

  get(path: string): Asset {
    const stat = statSync(path);
    if (!stat.isFile()) throw new Error(`${path} is not a file`);
    const key = `${stat.size}-${stat.mtimeMs}`;
    const cached = this.#assets.get(path);
    if (cached?.key === key) return cached;
    const extension = path.slice(path.lastIndexOf('.') + 1);
    let body = readFileSync(path);
    if (extension === 'ts') body = Buffer.from(stripTypes(body.toString('utf8')), 'utf8');
    const asset: Asset = {
      key,
      body,
      gzipped: gzipSync(body),
      etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
      type: contentTypes[extension] ?? 'application/octet-stream',
    };
    this.#assets.set(path, asset);
    return asset;
  }
}

/** Browser TypeScript to JavaScript: Node's own stripper, without its "experimental" warning. */
function stripTypes(source: string): string {
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (String(warning).includes('stripTypeScriptTypes')) return;
    Reflect.apply(emitWarning, process, [warning, ...rest]);
  }) as typeof process.emitWarning;
  try {
    return stripTypeScriptTypes(source, { mode: 'strip' });
  } finally {
    process.emitWarning = emitWarning;
  }
}

function resolvePackageFile(specifier: string): string {
  return fileURLToPath(import.meta.resolve(specifier));
}
