import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { minimalPdf } from '../testing/internal/index.ts';
import { type IngestProgress, KnowledgeBase } from './knowledge-base.ts';
import { SqliteRetriever } from './sqlite-retriever.ts';

const directory = mkdtempSync(join(tmpdir(), 'yeoul-kb-'));
after(() => rmSync(directory, { recursive: true, force: true }));

function folderWith(files: Record<string, string | Buffer>): string {
  const root = mkdtempSync(join(directory, 'docs-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(root, name, '..'), { recursive: true });
    writeFileSync(join(root, name), content);
  }
  return root;
}

const markdown = `# 휴가 정책

## 연차
연차는 입사 첫해에 15일이 주어집니다.

## 병가
병가는 연 10일까지 유급으로 쓸 수 있습니다.
`;

const html = `<!doctype html><html><head><title>Expense policy</title><style>p{}</style><script>var x = "ignored";</script></head>
<body><nav>menu</nav><h1>Expenses</h1><h2>Travel</h2><p>The travel allowance is <b>50,000 won</b> per day.</p>
<ul><li>Taxis need a receipt.</li></ul><div>Loose text in a div counts too.</div></body></html>`;

describe('knowledge base ingestion', () => {
  it('ingests Markdown, HTML, PDF and text from a folder, with headings on their chunks', async () => {
    const root = folderWith({
      'policy/vacation.md': markdown,
      'policy/expenses.html': html,
      'reports/security.pdf': minimalPdf(
        ['Security report 2024', 'Passwords rotate every 90 days.'],
        'Security',
      ),
      'notes.txt': 'The office is in Pangyo.\n\nThe cafeteria opens at 11:30.',
      'image.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
    });
    const kb = new KnowledgeBase(new SqliteRetriever());
    const progress: IngestProgress[] = [];
    const result = await kb.ingestPaths([root], (step) => progress.push(step));
    assert.equal(result.ids.length, 4);
    assert.deepEqual(result.failed, []);
    assert.deepEqual(
      progress.map((step) => `${step.done}/${step.total}`),
      ['1/4', '2/4', '3/4', '4/4'],
    );

    const sick = await kb.search('병가는 며칠이야?');
    assert.equal(sick[0]?.title, '휴가 정책');
    assert.equal(sick[0]?.heading, '휴가 정책 > 병가');
    assert.match(sick[0]?.text ?? '', /10일/);

    const travel = await kb.search('travel allowance per day');
    assert.equal(travel[0]?.title, 'Expense policy');
    assert.equal(travel[0]?.heading, 'Expenses > Travel');
    assert.doesNotMatch(JSON.stringify(await kb.search('ignored menu')), /var x/);

    const security = await kb.search('how often do passwords rotate');
    assert.equal(security[0]?.title, 'Security');
    assert.equal((await kb.search('Pangyo office'))[0]?.title, 'notes');
  });

  it('does nothing when the same content is ingested again, and replaces changed content', async () => {
    const root = folderWith({ 'a.md': markdown });
    const kb = new KnowledgeBase(new SqliteRetriever());
    const first = await kb.ingestPaths([root]);
    const again = await kb.ingestPaths([root]);
    assert.deepEqual(again.ids, first.ids);
    assert.deepEqual(again.unchanged, first.ids);
    assert.equal(again.chunks, 0);
    writeFileSync(join(root, 'a.md'), markdown.replace('10일', '12일'));
    const changed = await kb.ingestPaths([root]);
    assert.deepEqual(changed.unchanged, []);
    assert.deepEqual(changed.ids, first.ids, 'the id is stable');
    assert.match((await kb.search('병가 며칠'))[0]?.text ?? '', /12일/);
    assert.equal((await kb.listDocuments()).length, 1);
  });

  it('reports files it cannot read and goes on with the others', async () => {
    const root = folderWith({
      'good.txt': 'Good content about onboarding.',
      'binary.txt': Buffer.from([0x00, 0x01, 0x02]),
      'broken.pdf': Buffer.from('%PDF-1.4 this is not really a pdf'),
    });
    const kb = new KnowledgeBase(new SqliteRetriever());
    const result = await kb.ingestPaths([root]);
    assert.equal(result.ids.length, 1);
    assert.deepEqual(result.failed.map((failure) => failure.source.split('/').at(-1)).sort(), [
      'binary.txt',
      'broken.pdf',
    ]);
    assert.match(result.failed[0]?.error ?? '', /Cannot read/);
    await assert.rejects(kb.ingestPaths([join(root, 'missing')]), { code: 'document_unsupported' });
  });

  it('adds raw documents with stable ids and deletes them by id', async () => {
    const kb = new KnowledgeBase(new SqliteRetriever());
    const added = await kb.addDocuments([
      { text: '2024년 팀 예산은 1억원입니다.', title: '팀 예산' },
      { id: 'policy-1', text: '# 보안\n\n비밀번호는 90일마다 바꿉니다.' },
    ]);
    assert.equal(added.ids[1], 'policy-1');
    const again = await kb.addDocuments([
      { text: '2024년 팀 예산은 1억원입니다.', title: '팀 예산' },
    ]);
    assert.equal(again.ids[0], added.ids[0]);
    assert.deepEqual(again.unchanged, [added.ids[0]]);
    assert.equal((await kb.search('팀 예산이 얼마야?'))[0]?.documentId, added.ids[0]);
    assert.equal((await kb.search('비밀번호 변경 주기'))[0]?.heading, '보안');
    assert.equal(await kb.deleteDocument('policy-1'), true);
    assert.deepEqual(await kb.search('비밀번호'), []);
  });
});
