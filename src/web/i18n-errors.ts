/** Error codes of the API and the stream in words: [English, Korean]. */
export const errorTexts: Record<string, readonly [string, string]> = {
  model_auth_failed: [
    'The model provider refused the credentials: check the API key.',
    '모델 제공자가 인증을 거부했습니다. API 키를 확인하세요.',
  ],
  model_unreachable: [
    'The model could not be reached (connection, DNS or TLS).',
    '모델에 연결할 수 없습니다 (연결, DNS 또는 TLS).',
  ],
  model_timeout: ['The model did not answer in time.', '모델이 제시간에 응답하지 않았습니다.'],
  model_rate_limited: [
    'The model provider is limiting requests; try again shortly.',
    '모델 제공자가 요청을 제한하고 있습니다. 잠시 후 다시 시도하세요.',
  ],
  model_unavailable: [
    'The model provider is unavailable right now.',
    '모델 제공자를 지금 사용할 수 없습니다.',
  ],
  model_bad_request: [
    'The model refused the request or the conversation history.',
    '모델이 요청이나 대화 기록을 거부했습니다.',
  ],
  unauthorized: ['A valid API key or token is needed.', '유효한 API 키 또는 토큰이 필요합니다.'],
  invalid_token: [
    'The token was refused (expired or not valid).',
    '토큰이 거부되었습니다(만료되었거나 유효하지 않습니다).',
  ],
  insufficient_scope: [
    'These credentials may not do this.',
    '이 자격 증명으로는 할 수 없는 작업입니다.',
  ],
  awaiting_approval: [
    'A tool call is waiting for your decision: approve or deny it first.',
    '도구 호출이 결정을 기다리고 있습니다. 먼저 승인하거나 거부하세요.',
  ],
  already_decided: ['This call was already decided.', '이미 결정된 호출입니다.'],
  not_interrupted: [
    'This conversation is not waiting for a decision.',
    '이 대화는 결정을 기다리고 있지 않습니다.',
  ],
  rate_limited: [
    'Too many requests in the last minute; try again shortly.',
    '최근 1분 동안 요청이 너무 많습니다. 잠시 후 다시 시도하세요.',
  ],
  budget_exceeded: [
    'The token budget is used up; it renews at 00:00 UTC (or next month).',
    '토큰 예산을 모두 사용했습니다. UTC 00:00(또는 다음 달)에 다시 채워집니다.',
  ],
  session_busy: [
    'This conversation is busy with other requests; try again shortly.',
    '이 대화에 대기 중인 요청이 많습니다. 잠시 후 다시 시도하세요.',
  ],
  no_active_run: [
    'No run is going in this conversation.',
    '이 대화에서 진행 중인 실행이 없습니다.',
  ],
  input_too_long: ['The message is too long.', '메시지가 너무 깁니다.'],
  empty_input: ['The message is empty.', '메시지가 비어 있습니다.'],
  document_unsupported: [
    'This file type cannot be added (use .txt, .md, .html or .pdf).',
    '이 형식의 파일은 추가할 수 없습니다 (.txt, .md, .html, .pdf 사용).',
  ],
  unsupported_encoding: [
    'The file’s text encoding is not supported (use UTF-8, UTF-16 or EUC-KR).',
    '파일의 문자 인코딩을 지원하지 않습니다 (UTF-8, UTF-16, EUC-KR 사용).',
  ],
  empty_document: ['The document has no text.', '문서에 텍스트가 없습니다.'],
  payload_too_large: [
    'The request is larger than the server accepts.',
    '요청이 서버 허용 크기보다 큽니다.',
  ],
  store_unavailable: ['The server’s store is unreachable.', '서버 저장소에 연결할 수 없습니다.'],
  network_error: ['The server could not be reached.', '서버에 연결할 수 없습니다.'],
  stream_interrupted: ['The connection to the run was lost.', '실행과의 연결이 끊어졌습니다.'],
  not_found: ['Not found.', '찾을 수 없습니다.'],
  invalid_fork_point: [
    'The conversation cannot be forked at that point; nothing was changed.',
    '그 지점에서는 대화를 포크할 수 없습니다. 아무것도 바뀌지 않았습니다.',
  ],
  thread_exists: [
    'A conversation with the fork’s id already exists; nothing was changed.',
    '포크할 대화의 ID가 이미 있습니다. 아무것도 바뀌지 않았습니다.',
  ],
  fork_point_unknown: [
    'The message was not found in the stored history, so it cannot be edited or asked again.',
    '저장된 기록에서 메시지를 찾지 못해 수정하거나 다시 물을 수 없습니다.',
  ],
  internal_error: [
    'The server failed; the error was logged.',
    '서버 오류가 발생했습니다 (기록됨).',
  ],
};
