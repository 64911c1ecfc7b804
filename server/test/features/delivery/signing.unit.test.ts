import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { sign as octokitSign } from '@octokit/webhooks-methods';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  contractSignature,
  deliveryHeaders,
  newSecret,
  standardSignature,
} from '../../../src/features/delivery/signing.js';

const SECRET = '3f'.repeat(32);

describe('signatures', () => {
  it.each([
    ['{}'],
    ['{"event":"order.created","timestamp":"2024-01-01T00:00:00.000Z","data":{"id":1}}'],
    ['{"note":"ünïcødé ✓ \\"q\\" \\u0000"}'],
  ])('the contract header matches @octokit/webhooks-methods and plain HMAC for %j', async (body) => {
    expect(contractSignature(SECRET, body)).toBe(await octokitSign(SECRET, body));
    expect(contractSignature(SECRET, body)).toBe(
      `sha256=${createHmac('sha256', Buffer.from(SECRET, 'utf8')).update(Buffer.from(body, 'utf8')).digest('hex')}`,
    );
  });

  it('the Standard Webhooks header is what the standardwebhooks library makes from base64(secretKey)', () => {
    const lib = new StandardWebhook(Buffer.from(SECRET, 'utf8').toString('base64'));
    const at = new Date('2024-05-01T00:00:00Z');
    const body = '{"event":"offer.updated","data":{"rate":"1.5"}}';
    expect(standardSignature(SECRET, 'msg_1', at.getTime() / 1000, body)).toBe(lib.sign('msg_1', at, body));
  });

  it('every attempt carries both schemes, the same id, and a timestamp of its own', () => {
    const d = {
      id: '6f1c0c3e-2d7a-4c7e-9a43-0d1f2a3b4c5d',
      event: 'order.created',
      body: '{"a":1}',
      secret: SECRET,
      attempt: 3,
    };
    const h = deliveryHeaders(d, Date.UTC(2024, 0, 1, 0, 0, 7, 900));
    expect(h).toMatchObject({
      'content-type': 'application/json',
      'x-webhook-event': 'order.created',
      'x-webhook-delivery': d.id,
      'webhook-id': d.id,
      'x-webhook-attempt': '3',
      'webhook-timestamp': String(Date.UTC(2024, 0, 1, 0, 0, 7) / 1000),
      'x-webhook-signature': contractSignature(SECRET, d.body),
    });
    expect(h['webhook-signature']).toBe(standardSignature(SECRET, d.id, Date.UTC(2024, 0, 1, 0, 0, 7) / 1000, d.body));
    expect(deliveryHeaders(d, Date.UTC(2024, 0, 1, 0, 1))['webhook-signature']).not.toBe(h['webhook-signature']);
  });

  it('secrets are 64 hex characters, never repeated', () => {
    const secrets = new Set(Array.from({ length: 100 }, newSecret));
    expect(secrets.size).toBe(100);
    for (const s of secrets) expect(s).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('the Standard Webhooks snippet of docs/webhooks.md', () => {
  const docs = readFileSync(new URL('../../../../docs/webhooks.md', import.meta.url), 'utf8');
  const snippet = [...docs.matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((m) => m[1])
    .find((code) => code.includes("from 'standardwebhooks'"))!;
  // What the text around the snippet says it has: Node's request, the raw body, the webhook's secretKey.
  const context =
    "import type { IncomingMessage } from 'node:http';\ndeclare const req: IncomingMessage;\ndeclare const rawBody: Buffer;\ndeclare const secretKey: string;\n";

  /** Type errors of `code` compiled as a strict ES module beside this file (so that it resolves the same packages). */
  function typeErrors(code: string): string[] {
    const file = fileURLToPath(new URL('./docs-snippet.mts', import.meta.url)).replaceAll('\\', '/');
    const options: ts.CompilerOptions = {
      strict: true,
      noUncheckedIndexedAccess: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: ['node'],
      skipLibCheck: true,
      noEmit: true,
    };
    const host = ts.createCompilerHost(options);
    // eslint-disable-next-line @typescript-eslint/unbound-method -- each is called with .call(host) below
    const { getSourceFile, fileExists, readFile } = host;
    host.getSourceFile = (name, target, ...rest) =>
      name === file ? ts.createSourceFile(name, code, target) : getSourceFile.call(host, name, target, ...rest);
    host.fileExists = (name) => name === file || fileExists.call(host, name);
    host.readFile = (name) => (name === file ? code : readFile.call(host, name));
    const program = ts.createProgram([file], options, host);
    return ts
      .getPreEmitDiagnostics(program)
      .map((d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
  }

  it('type-checks as written; passing req.headers itself does not (TS2345)', () => {
    expect(snippet).toContain('.verify(rawBody, headers)');
    expect(typeErrors(context + snippet)).toEqual([]);
    const before =
      "import { Webhook } from 'standardwebhooks';\nnew Webhook(Buffer.from(secretKey).toString('base64')).verify(rawBody, req.headers);\n";
    expect(typeErrors(context + before)).toEqual([expect.stringMatching(/^TS2345: /)]);
  }, 30_000);

  it('verifies a signed delivery and refuses an altered one', () => {
    const js = ts.transpileModule(snippet, {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- runs the documentation's own snippet, which is the test
    const run = new Function('exports', 'require', 'req', 'rawBody', 'secretKey', `${js}\nreturn event;`);
    const body =
      '{"id":"2592f0c4-6d0e-4b8a-9a51-3c1f0e7d8b2a","event":"order.created","timestamp":"2026-01-15T10:00:00.000Z","data":{"id":42}}';
    const headers = deliveryHeaders(
      { id: '6f1c0c3e-2d7a-4c7e-9a43-0d1f2a3b4c5d', event: 'order.created', body, secret: SECRET, attempt: 1 },
      Date.now(),
    );
    const verify = (raw: Buffer) => run({}, createRequire(import.meta.url), { headers }, raw, SECRET);
    expect(verify(Buffer.from(body))).toEqual(JSON.parse(body));
    expect(() => verify(Buffer.from(body.replace('42', '43')))).toThrow();
  });
});
