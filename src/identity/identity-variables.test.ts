import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { identityVariableProblems, identityVariables } from './identity-variables.ts';

const folder = mkdtempSync(join(tmpdir(), 'yeoul-identity-variables-'));
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString();

function problemsOf(env: Record<string, string>): string[] {
  const parsed = identityVariables.safeParse(env);
  const issues = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${String(issue.path[0])}: ${issue.message}`);
  return [...issues, ...identityVariableProblems(env)];
}

describe('identityVariables', () => {
  it('reads a public key from PEM text (with \\n escapes) or a file, and a JWK Set file or URL', () => {
    const pemFile = join(folder, 'key.pem');
    writeFileSync(pemFile, pem);
    const jwksFile = join(folder, 'jwks.json');
    writeFileSync(
      jwksFile,
      JSON.stringify({ keys: [{ ...rsa.publicKey.export({ format: 'jwk' }), kid: 'k1' }] }),
    );
    for (const value of [pem, pem.replaceAll('\n', '\\n'), pemFile]) {
      const read = identityVariables.parse({
        YEOUL_JWT_PUBLIC_KEY: value,
        YEOUL_JWT_AUDIENCE: 'a',
      });
      assert.equal(read.YEOUL_JWT_PUBLIC_KEY?.algorithm, 'RS256');
    }
    const file = identityVariables.parse({ YEOUL_JWT_JWKS: jwksFile }).YEOUL_JWT_JWKS;
    assert.equal(file?.kind === 'file' && file.keys[0]?.kid, 'k1');
    for (const url of [
      'https://idp.example/jwks.json',
      'http://127.0.0.1:9/j',
      'http://localhost/j',
    ]) {
      assert.equal(identityVariables.parse({ YEOUL_JWT_JWKS: url }).YEOUL_JWT_JWKS?.kind, 'url');
    }
    const defaults = identityVariables.parse({});
    assert.equal(defaults.YEOUL_JWT_OWNER_CLAIM, 'sub');
    assert.equal(defaults.YEOUL_JWT_SCOPES_CLAIM, 'scope');
  });

  it('names every bad variable, a line each, without echoing a secret', () => {
    const notJson = join(folder, 'not.json');
    writeFileSync(notJson, '{keys');
    const problems = problemsOf({
      YEOUL_JWT_SECRET: 'short-secret-value',
      YEOUL_JWT_PUBLIC_KEY: join(folder, 'missing.pem'),
      YEOUL_JWT_JWKS: 'http://idp.example/jwks.json',
    });
    assert.deepEqual(
      problems.map((problem) => problem.split(':')[0]),
      ['YEOUL_JWT_SECRET', 'YEOUL_JWT_PUBLIC_KEY', 'YEOUL_JWT_JWKS', 'YEOUL_JWT_AUDIENCE'],
    );
    assert.match(problems[0] ?? '', /at least 32 bytes/);
    assert.doesNotMatch(problems.join('\n'), /short-secret-value/);
    assert.match(problems[1] ?? '', /cannot read the file .*missing\.pem: no such file/);
    assert.match(problems[2] ?? '', /https:\/\/ URL \(http:\/\/ only on a loopback address\)/);
    assert.match(problemsOf({ YEOUL_JWT_JWKS: notJson })[0] ?? '', /is not JSON/);
    assert.match(
      problemsOf({
        YEOUL_JWT_PUBLIC_KEY: '-----BEGIN PUBLIC KEY-----\nnope\n-----END PUBLIC KEY-----',
      })[0] ?? '',
      /not a PEM public key/,
    );
    const ed = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' });
    assert.match(
      problemsOf({ YEOUL_JWT_PUBLIC_KEY: ed.toString(), YEOUL_JWT_AUDIENCE: 'a' })[0] ?? '',
      /RSA or a P-256/,
    );
  });
});
