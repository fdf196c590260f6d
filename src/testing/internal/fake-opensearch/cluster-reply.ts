/** A request as the cluster routes it. */
export interface ClusterRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: string;
  contentType: string;
}

/** A reply: JSON (or plain text for `_cat` without `format=json`), or nothing for HEAD. */
export interface ClusterReply {
  status: number;
  json?: unknown;
  text?: string;
}
