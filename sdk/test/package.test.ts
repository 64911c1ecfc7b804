import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const sdkDir = fileURLToPath(new URL('..', import.meta.url));
const rootDir = fileURLToPath(new URL('../..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The type errors tsc finds in one file of test/fixtures, checked with the SDK's tsconfig, as line and code. */
function typeErrors(name: string): { line: number; code: number; text: string }[] {
  const file = fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
  const config = ts.getParsedCommandLineOfConfigFile(
    join(sdkDir, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  )!;
  const program = ts.createProgram([file], { ...config.options, noEmit: true });
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file?.fileName === file)
    .map((d) => {
      const { line } = d.file!.getLineAndCharacterOfPosition(d.start!);
      return { line: line + 1, code: d.code, text: ts.flattenDiagnosticMessageText(d.messageText, '\n') };
    });
}

describe('the types', () => {
  it('refuse a wrong field name, a wrong amount type, a wrong enum value and a wrong use of a response', () => {
    const file = fileURLToPath(new URL('./fixtures/must-not-compile.ts', import.meta.url));
    const errors = typeErrors('must-not-compile.ts').map(({ line, code }) => ({ line, code }));
    const source = ts.sys.readFile(file)!.split('\n');
    const expected = source.flatMap((text, i) => {
      const m = /\/\/ TS(\d+):/.exec(text);
      return m ? [{ line: i + 1, code: Number(m[1]) }] : [];
    });
    expect(expected).toHaveLength(4);
    expect(errors).toEqual(expected);
  });

  it('accept the calls the docs show: listEvents() without a limit (the server defaults it), etagCache', () => {
    expect(typeErrors('must-compile.ts')).toEqual([]);
  });

  it('are generated from the committed sdk/openapi.json (`npm run openapi` at the root regenerates both)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pxs-sdk-gen-'));
    try {
      const bin = join(rootDir, 'node_modules/openapi-typescript/bin/cli.js');
      await run(process.execPath, [bin, 'openapi.json', '-o', join(dir, 'openapi.ts')], { cwd: sdkDir });
      const fresh = await readFile(join(dir, 'openapi.ts'), 'utf8');
      const committed = await readFile(join(sdkDir, 'src/generated/openapi.ts'), 'utf8');
      expect(committed === fresh, 'sdk/src/generated/openapi.ts is stale: run `npm run openapi` at the root').toBe(
        true,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('sdk/openapi.json', () => {
  it('passes `redocly lint` with the recommended rules (accepted warnings are listed with their reasons)', async () => {
    const bin = join(rootDir, 'node_modules/@redocly/cli/bin/cli.js');
    const { stdout, stderr } = await run(process.execPath, [bin, 'lint', '--format', 'json', 'sdk/openapi.json'], {
      cwd: rootDir,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      maxBuffer: 20_000_000,
    }).catch((e: { stdout: string; stderr: string }) => e);
    const report = JSON.parse(stdout.slice(stdout.indexOf('{')));
    expect(
      report.problems.map(
        (p: { ruleId: string; location: { pointer: string }[] }) => `${p.ruleId} ${p.location[0]?.pointer}`,
      ),
      stderr,
    ).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0, ignored: expect.any(Number) });
  });
});

describe('npm pack', () => {
  it('writes a package file that git ignores (`cd sdk && npm pack`, as the docs say, leaves the checkout clean)', async (context) => {
    const inRepo = await run('git', ['rev-parse', '--is-inside-work-tree'], { cwd: rootDir }).then(
      () => true,
      () => false,
    );
    if (!inRepo) return context.skip();
    const { name, version } = JSON.parse(await readFile(join(sdkDir, 'package.json'), 'utf8'));
    const filename = `${name.replace('@', '').replace('/', '-')}-${version}.tgz`;
    expect(filename).toBe('pxs-sdk-1.0.0.tgz');
    // check-ignore reads the ignore rules only: the file need not exist. Exit code 1 means "not ignored".
    const ignored = await run('git', ['check-ignore', '-q', '--no-index', `sdk/${filename}`], { cwd: rootDir }).then(
      () => true,
      () => false,
    );
    expect(ignored, 'add *.tgz to .gitignore').toBe(true);
  });

  it('makes a package that installs and imports in an empty project', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pxs-sdk-pack-'));
    try {
      // dist/ is built by `pretest`; --ignore-scripts keeps `prepack` from rebuilding it under the quickstart running in parallel.
      const { stdout } = await run(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], {
        cwd: sdkDir,
      });
      const [packed] = JSON.parse(stdout.slice(stdout.indexOf('[')));
      const files = packed.files.map((f: { path: string }) => f.path);
      expect(files).toEqual(
        expect.arrayContaining([
          'dist/index.js',
          'dist/index.d.ts',
          'dist/generated/openapi.d.ts',
          'openapi.json',
          'package.json',
        ]),
      );
      expect(files.filter((f: string) => f.startsWith('src/') || f.startsWith('test/'))).toEqual([]);

      await writeFile(
        join(dir, 'package.json'),
        JSON.stringify({ name: 'empty-project', version: '1.0.0', private: true, type: 'module' }),
      );
      // openapi-fetch comes from the npm cache when it is there (it is, after the workspace's install).
      const installing = await run(
        npm,
        ['install', '--prefer-offline', '--no-audit', '--no-fund', join(dir, packed.filename)],
        { cwd: dir },
      );
      // The package ships built: nothing of it runs at install, and npm has no install script of it to warn about.
      expect(installing.stderr).not.toContain('@pxs/sdk');
      const check = [
        "import { createClient, verifyWebhook, PxsError } from '@pxs/sdk';",
        "const c = createClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'pk_x', retry: false });",
        "console.log(typeof c.createOrder, typeof c.iterateOffers, typeof verifyWebhook, new PxsError(404, { statusCode: 404, errors: { order: 'notFound' } }).message);",
      ].join('\n');
      await writeFile(join(dir, 'check.mjs'), check);
      const out = await run(process.execPath, ['check.mjs'], { cwd: dir });
      expect(out.stdout.trim()).toBe('function function function order: notFound');
      const installed = JSON.parse(await readFile(join(dir, 'node_modules/@pxs/sdk/package.json'), 'utf8'));
      expect(Object.keys(installed.dependencies)).toEqual(['openapi-fetch']);
      expect(Object.keys(installed.scripts).filter((name) => /^(pre|post)?(install|prepare)$/.test(name))).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
