import { createHash, createHmac } from 'node:crypto';
import type { RecordedRequest } from './fake-http-server.ts';

/** AWS credentials a fake accepts. */
export interface FakeAwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  /** Temporary credentials' token, which must then come signed as `x-amz-security-token`. */
  sessionToken?: string;
}

/** Why a request's signature was refused, as AWS names it; undefined when it is valid. */
export interface SignatureProblem {
  type:
    | 'MissingAuthenticationTokenException'
    | 'IncompleteSignatureException'
    | 'UnrecognizedClientException'
    | 'InvalidSignatureException';
  message: string;
  status: number;
}

const authorizationPattern =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;

/**
 * Checks a request's AWS Signature Version 4 as AWS does: the `Authorization` header's shape,
 * `x-amz-date`, the credential scope (`service`, the access key), then the signature itself,
 * recomputed from the canonical request with the secret key.
 */
export function checkSignatureV4(
  request: RecordedRequest,
  expected: { credentials: FakeAwsCredentials; service: string },
): SignatureProblem | undefined {
  const authorization = header(request, 'authorization');
  const amzDate = header(request, 'x-amz-date');
  if (authorization === undefined) {
    return {
      type: 'MissingAuthenticationTokenException',
      message: 'Missing Authentication Token',
      status: 400,
    };
  }
  const match = authorizationPattern.exec(authorization);
  if (match === null || amzDate === undefined || !/^\d{8}T\d{6}Z$/.test(amzDate)) {
    const message =
      'Authorization header requires Credential, SignedHeaders and Signature, and an X-Amz-Date header.';
    return { type: 'IncompleteSignatureException', message, status: 400 };
  }
  const [, accessKeyId, date, region, service, signedHeaders, signature] =
    match as unknown as string[];
  if (accessKeyId !== expected.credentials.accessKeyId) {
    const message = 'The security token included in the request is invalid.';
    return { type: 'UnrecognizedClientException', message, status: 400 };
  }
  if (service !== expected.service || !amzDate.startsWith(date as string)) {
    const message = `Credential should be scoped to correct service: '${expected.service}'.`;
    return { type: 'InvalidSignatureException', message, status: 400 };
  }
  const names = (signedHeaders as string).split(';');
  const token = expected.credentials.sessionToken;
  if (
    token !== undefined &&
    (header(request, 'x-amz-security-token') !== token || !names.includes('x-amz-security-token'))
  ) {
    const message = 'The security token included in the request is invalid.';
    return { type: 'UnrecognizedClientException', message, status: 403 };
  }
  const canonicalHeaders = names
    .map((name) => `${name}:${(header(request, name) ?? '').trim().replace(/\s+/g, ' ')}\n`)
    .join('');
  const canonicalQuery = [...request.query.entries()]
    .map(([name, value]) => `${encode(name)}=${encode(value)}`)
    .sort()
    .join('&');
  // Every service but S3 signs the path encoded once more (`%3A` as `%253A`).
  const canonicalPath = encode(request.path).replace(/%2F/g, '/');
  const canonicalRequest = [
    request.method,
    canonicalPath,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders,
    sha256(request.body),
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  let key: Buffer = hmac(`AWS4${expected.credentials.secretAccessKey}`, date as string);
  for (const part of [region, service, 'aws4_request'] as string[]) key = hmac(key, part);
  if (createHmac('sha256', key).update(stringToSign).digest('hex') !== signature) {
    const message =
      'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.';
    return { type: 'InvalidSignatureException', message, status: 400 };
  }
  return undefined;
}

function header(request: RecordedRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const hmac = (key: string | Buffer, text: string) =>
  createHmac('sha256', key).update(text).digest();
const encode = (text: string) =>
  encodeURIComponent(text).replace(
    /[!'()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
