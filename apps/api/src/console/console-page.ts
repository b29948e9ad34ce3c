/**
 * The operator console: one static page whose script calls the operator API with the key the
 * operator types. The key lives in a variable of the page only: no storage, no cookie, no URL, so
 * closing the tab forgets it. Read only: it calls GET routes only.
 */
export function consolePage(nonce: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Operator console · Partner Payments API</title>
<style nonce="${nonce}">
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1b1f24;background:#f6f7f9}
header{background:#1b1f24;color:#fff;padding:.8rem 1.2rem;display:flex;gap:1rem;align-items:center;flex-wrap:wrap}
header h1{font-size:1.1rem;margin:0 1rem 0 0}
main{padding:1rem 1.2rem;display:grid;gap:1rem}
section{background:#fff;border:1px solid #e3e6ea;border-radius:6px;padding:.8rem 1rem}
h2{font-size:1rem;margin:.2rem 0 .6rem}
table{border-collapse:collapse;width:100%;font-size:.9rem}
th,td{text-align:left;padding:.3rem .45rem;border-bottom:1px solid #eef0f3;vertical-align:top}
td pre{margin:0;white-space:pre-wrap;word-break:break-all;font-size:.8rem}
input{font:inherit;padding:.3rem .45rem;border:1px solid #c5cad1;border-radius:4px}
button{font:inherit;padding:.3rem .8rem;border:0;border-radius:4px;background:#0b5fff;color:#fff;cursor:pointer}
.muted{color:#5d6673}.bad{color:#b42318}.ok{color:#067647}
</style>
</head>
<body>
<header>
  <h1>Operator console</h1>
  <form id="connect">
    <label for="key">Operator key</label>
    <input id="key" type="password" autocomplete="off" placeholder="cop_…" size="44" required>
    <button type="submit">Connect</button>
  </form>
  <span id="status" class="muted">not connected: the key stays in this tab only</span>
</header>
<main>
  <section>
    <h2>Projections <button id="refresh" type="button">Refresh</button></h2>
    <table id="projections"><thead><tr><th>read model</th><th>state</th><th>checkpoint</th><th>head</th><th>lag (events to apply)</th><th>behind head</th><th>last error</th></tr></thead><tbody></tbody></table>
  </section>
  <section>
    <h2>Open reconciliation exceptions <span id="exceptions-total" class="muted"></span></h2>
    <table id="exceptions"><thead><tr><th>created</th><th>type</th><th>severity</th><th>merchant</th><th>batch</th><th>transaction</th><th>description</th></tr></thead><tbody></tbody></table>
  </section>
  <section>
    <h2>Stream history</h2>
    <form id="history"><input id="stream" placeholder="merchant-…, transaction-…, partner-…" size="56" required> <button type="submit">Show</button></form>
    <table id="events"><thead><tr><th>rev</th><th>type</th><th>recorded at</th><th>metadata</th><th>data</th></tr></thead><tbody></tbody></table>
  </section>
</main>
<script nonce="${nonce}">
'use strict';
let key = null;
const $ = (id) => document.getElementById(id);
const cell = (text, cls) => { const td = document.createElement('td'); td.textContent = text == null ? '—' : String(text); if (cls) td.className = cls; return td; };
const pre = (value) => { const td = document.createElement('td'); const p = document.createElement('pre'); p.textContent = JSON.stringify(value, null, 1); td.appendChild(p); return td; };
async function call(path) {
  const res = await fetch('/api/v1' + path, { headers: { authorization: 'Bearer ' + key }, cache: 'no-store', credentials: 'omit' });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new Error((body && body.detail) || ('HTTP ' + res.status));
  return body;
}
function say(text, cls) { $('status').textContent = text; $('status').className = cls || 'muted'; }
async function projections() {
  const { data } = await call('/platform/projections');
  const body = $('projections').tBodies[0]; body.replaceChildren();
  for (const p of data) {
    const tr = document.createElement('tr');
    tr.append(cell(p.name), cell(p.state, p.state === 'failed' ? 'bad' : p.state === 'running' ? 'ok' : ''), cell(p.checkpoint), cell(p.head), cell(p.lag, p.lag > 0 ? 'bad' : ''), cell(p.behind_head), cell(p.last_error, 'bad'));
    body.append(tr);
  }
}
async function exceptions() {
  const { data, pagination } = await call('/platform/reconciliation-exceptions?state=OPEN&page_size=100');
  const total = pagination.total_count;
  const body = $('exceptions').tBodies[0]; body.replaceChildren();
  for (const x of data) {
    const tr = document.createElement('tr');
    tr.append(cell(x.created_at), cell(x.type), cell(x.severity, x.severity === 'HIGH' || x.severity === 'CRITICAL' ? 'bad' : ''), cell(x.merchant_id), cell(x.batch_id), cell(x.transaction_id), cell(x.description));
    body.append(tr);
  }
  $('exceptions-total').textContent = total + ' open' + (total > data.length ? ', newest ' + data.length + ' shown' : '');
}
const refresh = () => Promise.all([projections(), exceptions()]);
$('connect').addEventListener('submit', async (e) => {
  e.preventDefault(); key = $('key').value.trim(); $('key').value = '';
  try { await refresh(); say('connected', 'ok'); } catch (err) { key = null; say('refused: ' + err.message, 'bad'); }
});
$('refresh').addEventListener('click', () => refresh().catch((err) => say(err.message, 'bad')));
$('history').addEventListener('submit', async (e) => {
  e.preventDefault();
  const body = $('events').tBodies[0]; body.replaceChildren();
  try {
    const { data } = await call('/platform/streams/' + encodeURIComponent($('stream').value.trim()) + '/events?limit=1000');
    for (const ev of data) { const tr = document.createElement('tr'); tr.append(cell(ev.revision), cell(ev.type), cell(ev.recorded_at), pre(ev.metadata), pre(ev.data)); body.append(tr); }
    say(data.length + ' events', 'ok');
  } catch (err) { say(err.message, 'bad'); }
});
</script>
</body>
</html>`;
}
