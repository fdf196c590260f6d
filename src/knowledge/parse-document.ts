import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { type ChildNode, isTag, isText } from 'domhandler';
import { DomUtils, parseDocument } from 'htmlparser2';
import { lexer } from 'marked';
import type { Block } from './chunk-blocks.ts';
import { decodeText } from './decode-text.ts';
import { UnsupportedDocumentError } from './errors/unsupported-document-error.ts';

/** The formats the knowledge base reads. */
export type DocumentFormat = 'text' | 'markdown' | 'html' | 'pdf';

/** A parsed document: its title and its blocks. */
export interface ParsedDocument {
  title: string;
  blocks: Block[];
  text: string;
}

const extensions: Record<string, DocumentFormat> = {
  '.txt': 'text',
  '.text': 'text',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.html': 'html',
  '.htm': 'html',
  '.pdf': 'pdf',
};

/** The format of a file by its extension, or undefined when it is not one the knowledge base reads. */
export function formatOfPath(path: string): DocumentFormat | undefined {
  return extensions[extname(path).toLowerCase()];
}

/** Reads and parses a file. */
export async function parseFile(path: string): Promise<ParsedDocument> {
  return parseFileData(path, await readFile(path));
}

/**
 * Parses a file's content by its name's extension: text decoded from UTF-8, UTF-16 or
 * EUC-KR/CP949, PDF text extracted. The title falls back to the name without extension.
 */
export async function parseFileData(name: string, data: Uint8Array): Promise<ParsedDocument> {
  const format = formatOfPath(name);
  if (format === undefined)
    throw new UnsupportedDocumentError({
      source: name,
      reason: `unsupported extension "${extname(name)}"`,
    });
  const parsed =
    format === 'pdf'
      ? await parsePdf(Buffer.from(data), name)
      : parseText(decodeText(data, name).text, format);
  return { ...parsed, title: parsed.title || basename(name, extname(name)) };
}

/** Parses text in a given format (PDF excluded: it is binary). */
export function parseText(text: string, format: Exclude<DocumentFormat, 'pdf'>): ParsedDocument {
  if (format === 'markdown') return parseMarkdown(text);
  if (format === 'html') return parseHtml(text);
  const blocks: Block[] = text
    .split(/\n\s*\n/)
    .map((paragraph) => ({ kind: 'text', text: paragraph.trim() }));
  return finish(
    '',
    blocks.filter((block) => block.text !== ''),
  );
}

function parseMarkdown(text: string): ParsedDocument {
  const blocks: Block[] = [];
  for (const token of lexer(text)) {
    if (token.type === 'heading')
      blocks.push({ kind: 'heading', level: token.depth, text: token.text });
    else if (token.type !== 'space' && token.type !== 'hr' && token.raw.trim() !== '') {
      blocks.push({ kind: 'text', text: token.type === 'code' ? token.text : token.raw.trim() });
    }
  }
  const first = blocks.find((block) => block.kind === 'heading' && block.level === 1);
  return finish(first?.text ?? '', blocks);
}

const headingTags = /^h([1-6])$/;
const textTags = new Set([
  'p',
  'li',
  'pre',
  'blockquote',
  'td',
  'th',
  'dd',
  'dt',
  'figcaption',
  'caption',
]);
const skippedTags = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head', 'nav']);

function parseHtml(html: string): ParsedDocument {
  const document = parseDocument(html);
  const blocks: Block[] = [];
  const visit = (nodes: ChildNode[]) => {
    for (const node of nodes) {
      if (!isTag(node)) {
        // Loose text directly in a container (a <div> with no <p>) is a paragraph too.
        if (isText(node) && node.data.trim() !== '')
          blocks.push({ kind: 'text', text: clean(node.data) });
        continue;
      }
      if (skippedTags.has(node.name)) continue;
      const heading = node.name.match(headingTags);
      if (heading)
        blocks.push({
          kind: 'heading',
          level: Number(heading[1]),
          text: clean(DomUtils.textContent(node)),
        });
      else if (textTags.has(node.name))
        blocks.push({ kind: 'text', text: clean(DomUtils.textContent(node)) });
      else visit(node.children);
    }
  };
  visit(document.children);
  const titleElement = DomUtils.findOne((element) => element.name === 'title', document.children);
  const title = titleElement ? clean(DomUtils.textContent(titleElement)) : '';
  return finish(
    title,
    blocks.filter((block) => block.text !== ''),
  );
}

async function parsePdf(data: Buffer, source: string): Promise<ParsedDocument> {
  const { extractText, getDocumentProxy, getMeta } = await import('unpdf');
  try {
    const pdf = await getDocumentProxy(new Uint8Array(data));
    const { text } = await extractText(pdf, { mergePages: false });
    const meta = await getMeta(pdf).catch(() => ({ info: {} as Record<string, unknown> }));
    const blocks: Block[] = (text as string[]).flatMap((page) =>
      page.split(/\n\s*\n/).map((paragraph): Block => ({ kind: 'text', text: clean(paragraph) })),
    );
    const title = typeof meta.info.Title === 'string' ? meta.info.Title : '';
    return finish(
      title,
      blocks.filter((block) => block.text !== ''),
    );
  } catch (error) {
    throw new UnsupportedDocumentError({
      source,
      reason: `the PDF could not be read (${(error as Error).message})`,
    });
  }
}

function clean(text: string): string {
  return text
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();
}

function finish(title: string, blocks: Block[]): ParsedDocument {
  const text = blocks.map((block) => block.text).join('\n\n');
  return { title: title.trim(), blocks, text };
}
