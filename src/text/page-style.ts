/**
 * The one look of every HTML page tokencli shows in a browser: the local service's login and error
 * pages and the login listener's success and failure pages. One inline style sheet, allowed by its
 * hash in each page's Content-Security-Policy, nothing loaded from anywhere.
 */
import { createHash } from 'node:crypto';

export const PAGE_STYLE = `
:root{color-scheme:light dark;--bg:#f4f5f7;--card:#fff;--text:#1d2330;--muted:#5b6474;--line:#c9ced8;
--accent:#2457d6;--accent-text:#fff;--error-bg:#fdecec;--error:#a4161a}
@media (prefers-color-scheme:dark){:root{--bg:#14171c;--card:#1d2129;--text:#e7e9ee;--muted:#9aa3b2;
--line:#3a4150;--accent:#6f95ff;--accent-text:#0d1117;--error-bg:#3b1618;--error:#ffb4b4}}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:var(--bg);
color:var(--text);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;padding:1rem}
main{width:100%;max-width:24rem;background:var(--card);border-radius:12px;padding:2rem;
box-shadow:0 1px 3px rgba(0,0,0,.12),0 8px 24px rgba(0,0,0,.08)}
h1{font-size:1.35rem;margin:0 0 .25rem}
p.lead{margin:0 0 1.5rem;color:var(--muted)}
p.lead strong{color:var(--text)}
label{display:block;font-weight:600;margin:1rem 0 .35rem}
input[type=text],input[type=password]{width:100%;padding:.65rem .75rem;font:inherit;color:inherit;
background:transparent;border:1px solid var(--line);border-radius:8px}
input:focus{outline:2px solid var(--accent);outline-offset:1px;border-color:var(--accent)}
.actions{display:flex;gap:.75rem;margin-top:1.5rem}
button{flex:1;padding:.7rem;font:inherit;font-weight:600;border:1px solid var(--accent);border-radius:8px;
background:var(--accent);color:var(--accent-text);cursor:pointer}
button.secondary{background:transparent;color:var(--text);border-color:var(--line)}
p.scope{margin:1rem 0 0;font-size:.9rem;color:var(--muted)}
button:focus-visible{outline:2px solid var(--text);outline-offset:2px}
.error{background:var(--error-bg);color:var(--error);border-radius:8px;padding:.65rem .75rem;margin:0 0 .5rem}
footer{margin-top:1.5rem;font-size:.8rem;color:var(--muted);text-align:center}
code{word-break:break-all}
.mark{margin-right:.4rem}
.ok .mark{color:#1a7f37}
.fail .mark{color:var(--error)}
p.message{margin:0;overflow-wrap:anywhere}
`;

/** For `style-src 'sha256-…'`: the only style a page may apply. */
export const PAGE_STYLE_HASH = createHash('sha256').update(PAGE_STYLE, 'utf8').digest('base64');
