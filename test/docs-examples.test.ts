import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';

const root = resolve(import.meta.dirname, '..');

/** The Markdown pages whose TypeScript examples are compiled: the README and docs/. */
function examplePages(): string[] {
  const docs = readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => join('docs', file));
  return ['README.md', ...docs.sort()];
}

/** Every page whose links are checked: the example pages and the other top-level docs. */
function linkedPages(): string[] {
  const others = ['CHANGELOG.md', 'CONTRIBUTING.md', 'bench/README.md', 'bench/results-log.md'];
  return [...examplePages(), ...others.filter((file) => existsSync(join(root, file)))];
}

interface CodeBlock {
  page: string;
  /** The 1-based line of the block's first code line in its page. */
  line: number;
  language: string;
  code: string;
  /** Marked `<!-- fragment -->` on the line before its fence: not a whole module. */
  fragment: boolean;
}

/** The fenced code blocks of a Markdown text, indented ones (in list items) included. */
function codeBlocksOf(page: string, text: string): CodeBlock[] {
  const lines = text.split('\n');
  const blocks: CodeBlock[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const opening = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[index] ?? '');
    if (!opening) continue;
    const [, indent = '', fence = '```', language = ''] = opening;
    const previous = lines.slice(0, index).findLast((line) => line.trim() !== '') ?? '';
    const body: string[] = [];
    let end = index + 1;
    while (end < lines.length && !isClosing(lines[end] ?? '', fence)) {
      body.push((lines[end] ?? '').replace(new RegExp(`^ {0,${indent.length}}`), ''));
      end += 1;
    }
    blocks.push({
      page,
      line: index + 2,
      language: language.toLowerCase(),
      code: body.join('\n'),
      fragment: previous.trim() === '<!-- fragment -->',
    });
    index = end;
  }
  return blocks;
}

function isClosing(line: string, fence: string): boolean {
  const trimmed = line.trim();
  return trimmed.startsWith(fence) && trimmed.replaceAll(fence[0] ?? '`', '') === '';
}

/** `yeoul`, `yeoul/client`, … → the source file each door's types are built from. */
function packageDoors(): Record<string, string[]> {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, string | { types?: string }>;
  };
  const doors: Record<string, string[]> = {};
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target !== 'object' || target.types === undefined) continue;
    const source = target.types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts');
    assert.ok(existsSync(join(root, source)), `${subpath}'s types come from ${source}`);
    const specifier = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
    doors[specifier] = [join(root, source)];
  }
  return doors;
}

/** The libraries the package's types are built against (tsconfig.build.json: the DOM's too). */
function packageLib(): string[] {
  const build = JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8')) as {
    compilerOptions?: { lib?: string[] };
  };
  return build.compilerOptions?.lib ?? ['esnext'];
}

/** Where tsc reports a problem: `file.ts(line,column): error TSxxxx: message`. */
interface Diagnostic {
  file: string;
  line: number;
  code: string;
  text: string;
}

function diagnosticsOf(output: string): Diagnostic[] {
  return [...output.matchAll(/^(.+?)\((\d+),\d+\): error (TS\d+): (.*)$/gm)].map((match) => ({
    file: resolve(match[1] ?? ''),
    line: Number(match[2]),
    code: match[3] ?? '',
    text: match[4] ?? '',
  }));
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function slugOf(heading: string): string {
  return heading
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const outsideCode = text.replace(/^(\s*)(`{3,})[\s\S]*?^\s*\2\s*$/gm, '');
  for (const match of outsideCode.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const slug = slugOf(match[1] ?? '');
    let anchor = slug;
    for (let count = 1; anchors.has(anchor); count += 1) anchor = `${slug}-${count}`;
    anchors.add(anchor);
  }
  return anchors;
}

const temporary = mkdtempSync(join(root, 'node_modules', '.cache-docs-examples-'));
after(() => rmSync(temporary, { recursive: true, force: true }));

describe('the documentation', () => {
  it('has TypeScript examples that compile against the package the way a user imports it', async (t) => {
    const blocks = examplePages().flatMap((page) =>
      codeBlocksOf(page, readFileSync(join(root, page), 'utf8')),
    );
    const typescript = blocks.filter((block) => ['ts', 'typescript'].includes(block.language));
    const checked = typescript.filter((block) => !block.fragment);
    const origins = new Map<string, CodeBlock>();
    const files = checked.map((block, index) => {
      const file = join(temporary, `example-${String(index + 1).padStart(3, '0')}.ts`);
      writeFileSync(file, `${block.code}\n`);
      origins.set(file, block);
      return file;
    });
    // A module that uses a name the package does not export: tsc must refuse it, which shows
    // that the examples are checked against the package's real doors.
    const canary = join(temporary, 'canary.ts');
    writeFileSync(
      canary,
      "import { defineTool, notExportedByYeoul } from 'yeoul';\nvoid [defineTool, notExportedByYeoul];\n",
    );
    writeFileSync(join(temporary, 'package.json'), '{"type": "module"}\n');
    const tsconfig = join(temporary, 'tsconfig.json');
    writeFileSync(
      tsconfig,
      JSON.stringify({
        extends: join(root, 'tsconfig.json'),
        compilerOptions: {
          noEmit: true,
          allowImportingTsExtensions: true,
          lib: packageLib(),
          paths: packageDoors(),
        },
        files: [...files, canary],
        include: [],
      }),
    );

    const tsc = join(root, 'node_modules', '.bin', 'tsc');
    const output = await promisify(execFile)(tsc, ['-p', tsconfig, '--pretty', 'false'])
      .then(({ stdout }) => stdout)
      .catch((error: { stdout?: string }) => error.stdout ?? String(error));
    const diagnostics = diagnosticsOf(output);

    const refused = diagnostics.filter((diagnostic) => diagnostic.file === canary);
    assert.ok(
      refused.some(
        (diagnostic) => diagnostic.code === 'TS2305' && /notExportedByYeoul/.test(diagnostic.text),
      ),
      `tsc refuses a name the package does not export:\n${output}`,
    );
    const fromSource = checked
      .filter((block) => /from ['"](?:\.\.?\/)*src\//.test(block.code))
      .map(
        (block) =>
          `${block.page}:${block.line}: imports from src/ (import yeoul, yeoul/client or yeoul/testing)`,
      );
    const problems = diagnostics
      .filter((diagnostic) => diagnostic.file !== canary)
      .map((diagnostic) => {
        const block = origins.get(diagnostic.file);
        const where = block
          ? `${block.page}:${block.line + diagnostic.line - 1}`
          : relative(root, diagnostic.file);
        return `${where}: ${diagnostic.code} ${diagnostic.text}`;
      });
    problems.push(...fromSource);
    assert.deepEqual(problems, [], `the examples do not compile:\n${problems.join('\n')}`);

    const fragments = typescript.length - checked.length;
    t.diagnostic(
      `${checked.length} TypeScript examples compiled (${fragments} marked as fragments)`,
    );
    assert.ok(checked.length >= 10, `only ${checked.length} examples were checked`);
    assert.ok(fragments <= checked.length / 5, `${fragments} fragments: keep them rare`);
  });

  it('links only to files (and headings) that exist in the repository', () => {
    const broken: string[] = [];
    for (const page of linkedPages()) {
      const text = readFileSync(join(root, page), 'utf8');
      const prose = text.replace(/^(\s*)(`{3,})[\s\S]*?^\s*\2\s*$/gm, '').replace(/`[^`\n]*`/g, '');
      for (const match of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
        const link = match[1] ?? '';
        if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue;
        const [path = '', anchor] = link.split('#');
        const target = path === '' ? join(root, page) : resolve(root, dirname(page), path);
        if (!target.startsWith(root) || !existsSync(target)) {
          broken.push(`${page}: ${link} (no such file)`);
          continue;
        }
        if (anchor && target.endsWith('.md')) {
          const anchors = anchorsOf(readFileSync(target, 'utf8'));
          if (!anchors.has(decodeURIComponent(anchor)))
            broken.push(`${page}: ${link} (no such heading)`);
        }
      }
    }
    assert.deepEqual(broken, []);
  });
});
