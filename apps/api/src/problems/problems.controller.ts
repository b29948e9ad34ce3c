import { Controller, Get, Header, Param } from '@nestjs/common';
import { PublicRoute } from '../../../../libs/platform/src/auth/access';
import { NotFound, PROBLEM_STATUS } from '../../../../libs/platform/src/problem';
import { PROBLEM_CATALOG, type ProblemDescription } from './problem-catalog';
import { Describe } from '../../../../libs/platform/src/openapi/describe';

const escape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
/** `code` spans in the catalog's text become <code>. */
const prose = (text: string) => escape(text).replace(/`([^`]+)`/g, '<code>$1</code>');
const slugOf = (code: string) => code.replace(/_/g, '-');

/** The HTTP status a code answers with (business-rule codes not in the table answer 422). */
function statusOf(code: string): string {
  if (code === 'unauthorized') return '401 or 403';
  return String(PROBLEM_STATUS[code] ?? 422);
}

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}
code{background:#f2f4f7;padding:0 .25em;border-radius:3px}table{border-collapse:collapse;width:100%}
td,th{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #e3e6ea;vertical-align:top}</style>
</head><body>${body}</body></html>`;
}

function problemPage(code: string, d: ProblemDescription): string {
  return page(
    `${code} · Partner Payments API`,
    `<p><a href="/api/v1/problems">All problem codes</a></p>
<h1><code>${escape(code)}</code></h1>
<p>HTTP status: <strong>${statusOf(code)}</strong></p>
<h2>What happened</h2><p>${prose(d.meaning)}</p>
<h2>What to do</h2><p>${prose(d.action)}</p>
<p>Every problem body also carries <code>title</code>, <code>status</code>, <code>detail</code> (what exactly went wrong),
<code>request_id</code> (name it when you report a problem) and, for bad input, <code>errors</code> naming each field.</p>`,
  );
}

/**
 * The page every problem's `type` URL names (RFC 9457): what the code means and what to do. Public,
 * like the health probe: it documents the API and holds no data.
 */
@PublicRoute()
@Controller('problems')
export class ProblemsController {
  @Get()
  @Header('content-type', 'text/html; charset=utf-8')
  @Describe({
    summary: 'Every problem code with its status (HTML)',
    response: { mediaType: 'text/html' },
    tag: 'Service',
  })
  index(): string {
    const rows = Object.entries(PROBLEM_CATALOG)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(
        ([code, d]) =>
          `<tr><td><a href="problems/${slugOf(code)}"><code>${escape(code)}</code></a></td><td>${statusOf(code)}</td><td>${prose(d.meaning)}</td></tr>`,
      )
      .join('\n');
    return page(
      'Problem codes · Partner Payments API',
      `<h1>Problem codes</h1><p>Every error answer is <code>application/problem+json</code> with a <code>code</code>; its <code>type</code> links here.</p>
<table><tr><th>code</th><th>status</th><th>meaning</th></tr>
${rows}</table>`,
    );
  }

  @Get(':slug')
  @Header('content-type', 'text/html; charset=utf-8')
  @Describe({
    summary: 'The page a problem’s `type` names: what the code means and what to do (HTML)',
    response: { mediaType: 'text/html' },
    errors: [404],
    tag: 'Service',
  })
  one(@Param('slug') slug: string): string {
    const code = slug.replace(/-/g, '_');
    const description = /^[a-z_]{1,64}$/.test(code) ? PROBLEM_CATALOG[code] : undefined;
    if (!description) throw new NotFound('not_found', `there is no problem code ${slug}`);
    return problemPage(code, description);
  }
}
