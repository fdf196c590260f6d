import { errorTexts } from './i18n-errors.ts';

/** The interface language: Korean when the browser prefers it, else English. */
export const locale: 'ko' | 'en' = /^ko\b/i.test(globalThis.navigator?.language ?? '')
  ? 'ko'
  : 'en';

const texts = {
  chat: ['Chat', '채팅'],
  documents: ['Documents', '문서'],
  graphs: ['Graphs', '그래프'],
  evals: ['Evals', '평가'],
  evalRuns: ['Evaluation runs', '평가 실행'],
  noEvalRuns: [
    'No evaluation runs yet. Run one with “yeoul eval DATASET”.',
    '아직 평가 실행이 없습니다. “yeoul eval DATASET”으로 실행하세요.',
  ],
  evalSummary: [
    '{passed}/{items} passed · mean {mean}',
    '{items}개 중 {passed}개 통과 · 평균 {mean}',
  ],
  evalRunning: ['running…', '실행 중…'],
  evalFailed: ['failed', '실패'],
  compareWith: ['Compare with', '비교 대상'],
  noComparison: ['(none)', '(없음)'],
  openEvalSession: ['Open session', '세션 열기'],
  rateUp: ['Good answer', '좋은 답변'],
  rateDown: ['Bad answer', '나쁜 답변'],
  rated: ['Thanks for the feedback', '평가해 주셔서 감사합니다'],
  rateLatestOnly: ['Only the latest answer can be rated', '마지막 답변만 평가할 수 있습니다'],
  memory: ['Memory', '기억'],
  memoryIntro: [
    'What Yeoul remembers about you across conversations.',
    '여울이 대화가 바뀌어도 기억하는 내용입니다.',
  ],
  noMemories: ['Nothing remembered yet.', '아직 기억한 내용이 없습니다.'],
  deleteMemory: ['Forget “{key}”', '“{key}” 잊기'],
  views: ['Views', '화면'],
  conversations: ['Conversations', '대화'],
  newSession: ['New chat', '새 대화'],
  deleteSession: ['Delete conversation “{title}”', '대화 “{title}” 삭제'],
  noSessions: ['No conversations yet', '아직 대화가 없습니다'],
  untitled: ['(untitled)', '(제목 없음)'],
  emptyChat: ['Ask anything.', '무엇이든 물어보세요.'],
  message: ['Message', '메시지'],
  placeholder: [
    'Message Yeoul (Enter sends, Shift+Enter adds a line)',
    '메시지를 입력하세요 (Enter: 보내기, Shift+Enter: 줄바꿈)',
  ],
  send: ['Send', '보내기'],
  stop: ['Stop', '중지'],
  graph: ['Graph', '그래프'],
  evaluate: ['Evaluate', '평가'],
  temperature: ['Temperature', '온도'],
  defaultValue: ['default', '기본값'],
  options: ['Run options', '실행 옵션'],
  you: ['You', '나'],
  assistant: ['Yeoul', '여울'],
  thinking: ['Thinking…', '생각 중…'],
  cancelled: ['Stopped', '중지됨'],
  rejected: ['Blocked by the evaluation', '평가에서 차단됨'],
  blockedTurn: ['Blocked by a guardrail', '가드레일이 차단함'],
  blockedMessage: ['Blocked', '차단됨'],
  guardrailBlock: [
    'Guardrail “{name}” blocked {subject}: {reason}',
    '가드레일 “{name}”: {subject} 차단 ({reason})',
  ],
  guardrailRedact: [
    'Guardrail “{name}” redacted {subject}: {reason}',
    '가드레일 “{name}”: {subject}에서 가림 ({reason})',
  ],
  guardrailWarn: [
    'Guardrail “{name}” flagged {subject}: {reason}',
    '가드레일 “{name}”: {subject} 경고 ({reason})',
  ],
  guardrailInput: ['your message', '메시지'],
  guardrailOutput: ['the answer', '답변'],
  guardrailTool: ['the call to {tool}', '{tool} 도구 호출'],
  guardrailTools: ['a tool call', '도구 호출'],
  openInspector: ['Steps', '실행 단계'],
  seconds: ['{n} s', '{n}초'],
  usage: [
    '{calls} {calls|LLM call|LLM calls} · {input} in / {output} out tokens',
    'LLM 호출 {calls}회 · 토큰 입력 {input} / 출력 {output}',
  ],
  tool: ['Tool', '도구'],
  arguments: ['Arguments', '인자'],
  result: ['Result', '결과'],
  toolError: ['Error', '오류'],
  running: ['running…', '실행 중…'],
  sources: ['Sources', '출처'],
  evaluation: ['Evaluation', '평가'],
  verdict: ['Verdict', '판정'],
  score: ['score {score}', '점수 {score}'],
  passed: ['passed', '통과'],
  failed: ['failed', '실패'],
  approvalNeeded: ['Approval needed: {tool}', '승인 필요: {tool}'],
  approve: ['Approve', '승인'],
  deny: ['Deny', '거부'],
  reason: ['Reason (optional)', '사유 (선택)'],
  approved: ['Approved: {tool}', '승인함: {tool}'],
  denied: ['Denied: {tool}', '거부함: {tool}'],
  inspector: ['Run inspector', '실행 검사기'],
  close: ['Close', '닫기'],
  loading: ['Loading…', '불러오는 중…'],
  noSteps: ['No stored steps for this turn yet.', '이 턴에 저장된 단계가 아직 없습니다.'],
  liveSteps: ['Live steps of the running turn', '진행 중인 턴의 단계 (실시간)'],
  update: ['update', '변경 내용'],
  parallelTasks: ['{n} {n|task|tasks} in parallel', '병렬 작업 {n}개'],
  editMessageLabel: ['Edit your message', '메시지 수정'],
  editHint: [
    'Enter runs the edited message in a new conversation (a fork); Shift+Enter adds a line; Escape cancels.',
    'Enter: 수정한 메시지를 새 대화(포크)에서 실행, Shift+Enter: 줄바꿈, Escape: 취소',
  ],
  save: ['Save & send', '저장 후 보내기'],
  cancel: ['Cancel', '취소'],
  regenerate: ['Regenerate', '다시 생성'],
  fork: ['fork', '포크'],
  forkFailed: ['Could not fork the conversation:', '대화를 포크하지 못했습니다:'],
  forkedFrom: ['Forked from “{title}” at step {step}', '“{title}”의 {step}단계에서 포크됨'],
  forkedFromStart: [
    'Forked from “{title}” before its first message',
    '“{title}”의 첫 메시지 전에서 포크됨',
  ],
  forks: ['Forks of this conversation:', '이 대화의 포크:'],
  forkAt: ['{title} (step {step})', '{title} ({step}단계)'],
  forkAtStart: ['{title} (from the start)', '{title} (처음부터)'],
  input: ['input', '입력'],
  summary: ['Earlier conversation (summary)', '이전 대화 요약'],
  addFiles: ['Add documents', '문서 추가'],
  dropHint: [
    'Drop .txt, .md, .html or .pdf files here, or choose them:',
    '.txt, .md, .html, .pdf 파일을 여기에 놓거나 선택하세요:',
  ],
  uploading: ['{name}: uploading {percent}%', '{name}: 올리는 중 {percent}%'],
  uploaded: ['{name}: {chunks} {chunks|passage|passages} added', '{name}: 구절 {chunks}개 추가됨'],
  deleteDocument: ['Delete document “{title}”', '문서 “{title}” 삭제'],
  delete: ['Delete', '삭제'],
  storedDocuments: ['In the knowledge base ({n})', '지식 베이스의 문서 ({n}개)'],
  noDocuments: ['No documents yet.', '아직 문서가 없습니다.'],
  passages: ['{n} {n|passage|passages}', '구절 {n}개'],
  search: ['Search the knowledge base', '지식 베이스 검색'],
  searchPlaceholder: ['What the agent would find for…', '에이전트가 찾게 될 내용…'],
  noHits: ['No passages found.', '찾은 구절이 없습니다.'],
  graphFailed: ['The graph could not be drawn.', '그래프를 그리지 못했습니다.'],
  model: ['Model', '모델'],
  offlineNotice: [
    'This is the built-in offline model, not a language model. For a real one, set OPENAI_API_KEY or ANTHROPIC_API_KEY (or YEOUL_MODEL, e.g. ollama:llama3.1), then start Yeoul again.',
    '내장 오프라인 모델입니다(언어 모델이 아닙니다). 실제 모델을 쓰려면 OPENAI_API_KEY나 ANTHROPIC_API_KEY(또는 YEOUL_MODEL, 예: ollama:llama3.1)를 설정한 뒤 Yeoul을 다시 시작하세요.',
  ],
  lastModelError: ['Last model error ({code}): {message}', '최근 모델 오류 ({code}): {message}'],
  configError: [
    'The config file has an error (the last good version is serving): {message}',
    '설정 파일에 오류가 있습니다(마지막으로 정상이던 버전으로 동작 중): {message}',
  ],
  apiKeyTitle: ['API key or token needed', 'API 키 또는 토큰이 필요합니다'],
  apiKeyText: [
    'This server asks who you are: enter an API key or a sign-in token (JWT). It is kept for this browser session only.',
    '이 서버는 사용자 확인을 요구합니다. API 키나 로그인 토큰(JWT)을 입력하세요. 이 브라우저 세션 동안만 보관됩니다.',
  ],
  apiKey: ['API key or token', 'API 키 또는 토큰'],
  apiKeyRefused: [
    'The server refused that key or token (a token may have expired). Check it and enter it again.',
    '서버가 이 키 또는 토큰을 거부했습니다(토큰이 만료되었을 수 있습니다). 확인하고 다시 입력하세요.',
  ],
  signedInAs: ['Signed in as', '로그인 사용자'],
  readOnly: [
    'Read-only access: these credentials may read conversations and documents, but not send messages or change anything (they lack yeoul:write).',
    '읽기 전용 접근입니다. 이 자격 증명으로는 대화와 문서를 읽을 수만 있고, 메시지를 보내거나 바꿀 수는 없습니다(yeoul:write 권한 없음).',
  ],
  readOnlyShort: ['Read-only access', '읽기 전용 접근'],
  documentsReadOnly: [
    'These credentials may search the knowledge base but not add or delete documents (they lack yeoul:documents).',
    '이 자격 증명으로는 지식 베이스를 검색할 수만 있고, 문서를 추가하거나 삭제할 수는 없습니다(yeoul:documents 권한 없음).',
  ],
  tooManyTokens: [
    'The server takes at most {max} tokens per message (YEOUL_MAX_INPUT_TOKENS); this one has at least {tokens}. Shorten it and send again.',
    '서버는 메시지 하나에 토큰 {max}개까지 받습니다(YEOUL_MAX_INPUT_TOKENS). 이 메시지는 최소 {tokens}개입니다. 줄여서 다시 보내세요.',
  ],
  tooManyBytes: [
    'The server takes requests of at most {max} bytes (YEOUL_BODY_LIMIT). Shorten the message and send again.',
    '서버는 요청을 {max}바이트까지 받습니다(YEOUL_BODY_LIMIT). 메시지를 줄여서 다시 보내세요.',
  ],
  continue: ['Continue', '계속'],
} as const satisfies Record<string, readonly [string, string]>;

export type TextKey = keyof typeof texts;

/** The interface text `key` in the page's language, with `{name}` placeholders filled in. */
export function t(key: TextKey, values: Record<string, string | number> = {}): string {
  const text = texts[key][locale === 'ko' ? 1 : 0];
  // `{n|passage|passages}`: the word for one, or for any other count.
  return text
    .replace(/\{(\w+)\|([^|}]*)\|([^}]*)\}/g, (_whole, name: string, one: string, other: string) =>
      Number(values[name]) === 1 ? one : other,
    )
    .replace(/\{(\w+)\}/g, (whole, name: string) =>
      name in values ? String(values[name]) : whole,
    );
}

/** An error code in words (the code itself is shown beside it). */
export function errorText(code: string, fallback: string): string {
  const known = errorTexts[code];
  return known ? known[locale === 'ko' ? 1 : 0] : fallback || code;
}

/** A search score: three significant digits, however small. */
export function formatScore(value: number): string {
  return value.toLocaleString(locale, { maximumSignificantDigits: 3 });
}

/** Numbers in the page's language. */
export function formatNumber(value: number, digits = 0): string {
  return value.toLocaleString(locale, { maximumFractionDigits: digits });
}
