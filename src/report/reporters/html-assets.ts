/**
 * The review page's only style sheet and script, inline, and the Content
 * Security Policy that admits exactly these two by hash: nothing else runs,
 * loads or connects (default-src 'none'), so the page works offline and a
 * hostile string that escaped escaping could still not execute.
 *
 * The script (1) records whether the style sheet applied (`data-styled`),
 * which is how the browser test proves the hashes match; (2) filters the
 * directory tree as the reader types, or from the link (`page.html#filter=
 * packages/api`); (3) opens or closes every section; (4) marks the page
 * ready (`data-ready`).
 */
import { createHash } from 'node:crypto';

export const PAGE_CSS = `:root{--rulec-styled:1;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#fff;--pass:#1a7f37;--fail:#cf222e;--info:#0969da;--old:#8c959f;--new:#0969da;--over:#cf222e}
*{box-sizing:border-box}
body{font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg);margin:0 auto;max-width:1100px;padding:24px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
.verdict.pass{color:var(--pass)}.verdict.fail{color:var(--fail)}.verdict.info{color:var(--info)}
.sub{color:var(--muted);margin:0}
code{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;background:#f6f8fa;padding:1px 4px;border-radius:4px;word-break:break-all}
pre{font:12px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace;background:#f6f8fa;padding:8px;overflow:auto;white-space:pre-wrap;word-break:break-all}
.figures{display:flex;flex-wrap:wrap;gap:12px;margin:16px 0;padding:0}
.figure{border:1px solid var(--line);border-radius:6px;padding:8px 12px;min-width:150px}
.figure dt{color:var(--muted);font-size:12px}.figure dd{margin:0;font-size:20px;font-weight:600}
table{border-collapse:collapse;width:100%;margin:8px 0}th,td{border:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa;font-weight:600}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.bar rect.old{fill:var(--old)}.bar rect.new{fill:var(--new)}.bar rect.over{fill:var(--over)}.bar line.budget{stroke:var(--fail);stroke-width:1.5}.bar rect.track{fill:#eef1f4}
.cache-big{font-size:34px;font-weight:700;color:var(--info)}
.tree ul{list-style:none;margin:0;padding-left:18px}.tree>ul{padding-left:0}.tree li{margin:1px 0}.tree .count{color:var(--muted);margin-left:6px}
.tree summary{cursor:pointer}.ex{color:var(--muted);font-size:12px;margin-left:6px}
.sev-error{color:var(--fail);font-weight:600}.sev-warning{color:#9a6700;font-weight:600}.sev-info{color:var(--muted)}
.adopted{font-weight:600;color:var(--pass)}.tag{display:inline-block;border:1px solid var(--line);border-radius:10px;padding:0 6px;font-size:12px;margin-right:4px}
.toolbar{margin:8px 0}.toolbar button,.toolbar input{font:inherit;margin-right:8px}
details>summary{font-weight:600}details{margin:6px 0}
.legend span{margin-right:12px}.legend .k-old{color:var(--old)}.legend .k-new{color:var(--new)}.legend .k-over,.legend .k-budget{color:var(--over)}
code.id{word-break:normal;white-space:nowrap}
footer{margin-top:32px;color:var(--muted);font-size:12px}
@media print{.toolbar{display:none}}`;

export const PAGE_JS = `(function () {
  var root = document.documentElement;
  var styled = getComputedStyle(root).getPropertyValue('--rulec-styled').trim() === '1';
  root.setAttribute('data-styled', styled ? 'yes' : 'no');
  var filter = document.getElementById('tree-filter');
  if (filter) {
    filter.addEventListener('input', function () {
      var q = filter.value.toLowerCase();
      var items = Array.prototype.slice.call(document.querySelectorAll('.tree li[data-path]')).reverse();
      items.forEach(function (li) {
        var own = li.getAttribute('data-path').toLowerCase().indexOf(q) >= 0;
        var child = li.querySelector('li[data-path]:not([hidden])') !== null;
        li.hidden = q !== '' && !own && !child;
      });
    });
    var m = /^#filter=(.*)$/.exec(location.hash);
    if (m) {
      try { filter.value = decodeURIComponent(m[1]); } catch (e) { filter.value = m[1]; }
      filter.dispatchEvent(new Event('input'));
    }
  }
  Array.prototype.forEach.call(document.querySelectorAll('button[data-open]'), function (b) {
    b.addEventListener('click', function () {
      var open = b.getAttribute('data-open') === 'yes';
      Array.prototype.forEach.call(document.querySelectorAll('main details'), function (d) { d.open = open; });
    });
  });
  root.setAttribute('data-ready', 'yes');
})();`;

const hash = (s: string): string => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

/** default-src 'none', and the style sheet and script above admitted by their sha256. */
export const PAGE_CSP = `default-src 'none'; style-src ${hash(PAGE_CSS)}; script-src ${hash(PAGE_JS)}; img-src 'none'; base-uri 'none'; form-action 'none'`;
