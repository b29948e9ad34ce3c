import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { useTestPlatform } from '../support/api';
import { ROOT } from '../support/process';

/**
 * A client generated from the served document type-checks the README quickstart: each `curl` of
 * the block between the `partner-quickstart` markers becomes an `openapi-fetch` call on the types
 * `openapi-typescript` generates, and the file must compile; a call with a wrong field must not.
 */
const OUT = path.join(ROOT, 'test-results', 'openapi-client');

interface Call {
  method: string;
  template: string;
  path: Record<string, string>;
  query: Record<string, string | number>;
  body: unknown;
}

type Paths = Record<
  string,
  Record<string, { parameters?: { name: string; in: string; schema?: { type?: string } }[] }>
>;

/** Shell variables of the quickstart, as sample values of the right form. */
const SAMPLES: Record<string, string> = { ACTION: 'start_review' };
const SAMPLE_ID = '00000000-0000-4000-8000-000000000000';
const sample = (text: string) =>
  text.replace(/\$\$/g, '1').replace(/\$([A-Z_]+)/g, (_, name: string) => SAMPLES[name] ?? SAMPLE_ID);

function quickstartCommands(): string[] {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const block = /<!-- partner-quickstart -->([\s\S]*?)<!-- \/partner-quickstart -->/.exec(readme)![1];
  // One command per curl, its continuation lines joined.
  return block
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .filter((line) => line.includes('curl ') && line.includes('"$BASE'));
}

function callOf(command: string, paths: Paths): Call {
  const templates = Object.keys(paths);
  const method = /-X (\w+)/.exec(command)?.[1] ?? 'GET';
  const [, rawPath, rawQuery] = /"\$BASE(\/[^"?]*)(\?[^"]*)?"/.exec(command)!;
  const segments = rawPath.split('/');
  const params = (t: string) => (t.match(/\{/g) ?? []).length;
  const template = [...templates]
    .sort((a, b) => params(a) - params(b))
    .find((candidate) => {
      const parts = candidate.split('/');
      return (
        parts.length === segments.length &&
        parts.every((part, i) => (/^\{.+\}$/.test(part) ? segments[i] !== '' : part === segments[i]))
      );
    });
  if (!template) throw new Error(`no operation of the document for ${method} ${rawPath}`);
  const values: Record<string, string> = {};
  template.split('/').forEach((part, i) => {
    if (/^\{.+\}$/.test(part)) values[part.slice(1, -1)] = sample(segments[i]);
  });
  // A query string is text; the typed client takes a number where the parameter is one.
  const declared = paths[template][method.toLowerCase()]?.parameters ?? [];
  const query = Object.fromEntries(
    [...new URLSearchParams(sample(rawQuery ?? '').replace(/^\?/, ''))].map(([name, value]) => {
      const type = declared.find((p) => p.in === 'query' && p.name === name)?.schema?.type;
      return [name, type === 'integer' || type === 'number' ? Number(value) : value];
    }),
  );
  const data =
    /-d '(\{.*?\})'/.exec(command)?.[1] ??
    /-d "(\{.*?\})"(?=[\s;]|$)/.exec(command)?.[1]?.replace(/\\"/g, '"');
  return {
    method,
    template,
    path: values,
    query,
    body: data === undefined ? undefined : JSON.parse(sample(data)),
  };
}

function source(calls: Call[]): string {
  const lines = calls.map((call) => {
    const params: string[] = [];
    if (Object.keys(call.path).length) params.push(`path: ${JSON.stringify(call.path)}`);
    if (Object.keys(call.query).length) params.push(`query: ${JSON.stringify(call.query)}`);
    if (['POST', 'PUT', 'PATCH'].includes(call.method))
      params.push(`header: { 'Idempotency-Key': 'quickstart-1' }`);
    const init = [
      params.length ? `params: { ${params.join(', ')} }` : '',
      call.body !== undefined ? `body: ${JSON.stringify(call.body)}` : '',
    ].filter(Boolean);
    return `  await client.${call.method}('${call.template}'${init.length ? `, { ${init.join(', ')} }` : ''});`;
  });
  return `import createClient from 'openapi-fetch';
import type { paths } from './api';

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:3000/api/v1' });

export async function quickstart(): Promise<void> {
${lines.join('\n')}
}
`;
}

function diagnostics(file: string): string[] {
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
    types: [],
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) =>
        `${d.file ? path.basename(d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    );
}

describe('a client generated from the OpenAPI document', () => {
  const platform = useTestPlatform();

  it('type-checks the README quickstart’s calls, and refuses a wrong field', async () => {
    mkdirSync(OUT, { recursive: true });
    const res = await platform().as(null).get('/openapi.json');
    expect(res.status).toBe(200);
    writeFileSync(path.join(OUT, 'openapi.json'), res.text!);
    execFileSync(
      process.execPath,
      [
        path.join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js'),
        path.join(OUT, 'openapi.json'),
        '--output',
        path.join(OUT, 'api.d.ts'),
      ],
      { stdio: 'pipe' },
    );

    const paths = (res.body as { paths: Paths }).paths;
    const calls = quickstartCommands().map((command) => callOf(command, paths));
    expect(calls.length).toBeGreaterThanOrEqual(15);
    expect(calls.map((c) => `${c.method} ${c.template}`)).toEqual(
      expect.arrayContaining([
        'POST /platform/partners',
        'POST /transactions',
        'GET /transactions/{transactionId}',
      ]),
    );
    const good = path.join(OUT, 'quickstart.ts');
    writeFileSync(good, source(calls));
    expect(diagnostics(good)).toEqual([]);

    // The same calls with one field misspelled: the generated types must refuse it.
    const wrong = path.join(OUT, 'wrong-field.ts');
    writeFileSync(wrong, source(calls).replace('"business_name"', '"business_nme"'));
    const refused = diagnostics(wrong);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.join('\n')).toMatch(/business_nme/);
  }, 120_000);
});
