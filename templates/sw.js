/* The service worker of judge: the rules with no network (judge/web/offline.py serves it as /sw.js,
   with this edition's version and files filled in below).

   On install it keeps the edition in force: the home page, the glossary, the analytic indexes, /turno,
   the two pages that render any rule and any search from the edition's data, the data files and
   the site's scripts and styles. A page opened with network is kept too. With no network a page comes
   from the copy; a rule or a search never opened is rendered from the data. When the corpus changes
   (a new edition in force) this file's bytes change: the browser installs the new worker, which keeps
   the new copy, drops the old one and tells the pages (they say so to the reader). */
"use strict";

const CONFIG = {{ config|tojson }};
const CACHE = "judge-" + CONFIG.versione;
const META = "/offline/versione-copia";
const NETWORK_TIMEOUT_MS = 5000;
// Pages worth keeping when opened: the rules and the references a reader may want again offline.
const KEPT = /^\/(?:$|regole\/|cerca$|glossario|indice-analitico|turno$|edizioni$|[1-9]|mtr|ipg|jar|tornei$)/;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // One file at a time: the copy is made in the background, and the site stays as quick as before.
    for (const file of CONFIG.file) {
      const response = await fetch(file, { cache: "no-cache" });
      if (!response.ok) throw new Error(file + ": " + response.status);
      await cache.put(file, response);
    }
    const state = { versione: CONFIG.versione, edizione: CONFIG.edizione, precedente: null };
    await cache.put(META, new Response(JSON.stringify(state), { headers: { "Content-Type": "application/json" } }));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    let previous = null;
    for (const name of await caches.keys()) {
      if (!name.startsWith("judge-") || name === CACHE) continue;
      const old = await (await caches.open(name)).match(META);
      if (old) previous = (await old.json()).edizione;
      await caches.delete(name);
    }
    const cache = await caches.open(CACHE);
    const state = { versione: CONFIG.versione, edizione: CONFIG.edizione, precedente: previous };
    await cache.put(META, new Response(JSON.stringify(state), { headers: { "Content-Type": "application/json" } }));
    await self.clients.claim();
    for (const client of await self.clients.matchAll({ type: "window" })) {
      client.postMessage({ tipo: "copia", ...state });
    }
  })());
});

self.addEventListener("message", (event) => {
  if (!event.data || event.data.tipo !== "stato") return;
  event.waitUntil((async () => {
    const meta = await (await caches.open(CACHE)).match(META);
    const state = meta ? await meta.json() : { versione: CONFIG.versione, edizione: CONFIG.edizione };
    event.source.postMessage({ tipo: "copia", ...state });
  })());
});

function withTimeout(promise, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("timeout")), ms);
    promise.then((v) => { clearTimeout(timer); resolve(v); }, (e) => { clearTimeout(timer); reject(e); });
  });
}

async function page(request, url) {
  const cache = await caches.open(CACHE);
  try {
    const response = await withTimeout(fetch(request), NETWORK_TIMEOUT_MS);
    if (response.ok && response.type === "basic" && KEPT.test(url.pathname)) {
      cache.put(request, response.clone());
    }
    return response;
  } catch (e) {
    const kept = await cache.match(request);
    if (kept) return kept;
    return cache.match(fallback(url));
  }
}

const RULE_PATH = /^\/(?:regole\/|r\/|cr\/)?[1-9][0-9]{0,2}(?:\.[0-9]{1,3}[a-z]{0,2})?$/i;

/* The page that answers, offline, a page not kept: a rule, a search or a glossary search rendered
   from the copy's data; for a page that needs the network, a page that says so and what works. */
function fallback(url) {
  const path = url.pathname;
  if (path === "/cerca") return CONFIG.cerca;
  if (path === "/glossario" && url.searchParams.has("q")) return CONFIG.glossario;
  for (const [page, prefixes] of Object.entries(CONFIG.senza_rete)) {
    if (prefixes.some((p) => path === p || path.startsWith(p.endsWith("/") ? p : p + "/"))) return page;
  }
  if (RULE_PATH.test(path) || path.startsWith("/regole/")) return CONFIG.regola;
  return CONFIG.altrove;
}

let edition = null;  // the edition's data, parsed once per worker life

async function ruleData() {
  if (!edition) {
    const response = await (await caches.open(CACHE)).match(CONFIG.dati);
    if (!response) return null;
    const data = await response.json();
    data.perNumero = new Map(data.regole.map((r) => [r.n, r]));
    edition = data;
  }
  return edition;
}

const MAX_PREVIEW_CHARS = 900;  // judge/web/previews.py

function shorten(text) {
  if (text.length <= MAX_PREVIEW_CHARS) return text;
  const cut = text.slice(0, MAX_PREVIEW_CHARS);
  return cut.slice(0, cut.lastIndexOf(" ") > 0 ? cut.lastIndexOf(" ") : cut.length).replace(/[,;:]+$/, "") + "…";
}

async function preview(request, url) {
  try {
    return await withTimeout(fetch(request), NETWORK_TIMEOUT_MS);
  } catch (e) {
    const number = decodeURIComponent(url.pathname.split("/").pop());
    const data = await ruleData();
    const rule = data && data.perNumero.get(number);
    if (!rule) return new Response(JSON.stringify({ error: { status: 404, message: "Regola non trovata nella copia offline." } }),
      { status: 404, headers: { "Content-Type": "application/json" } });
    // A section's or chapter's preview as /api/anteprima gives it (its first rule, its sections).
    const t = rule.it || rule.en, a = rule.a;
    const body = a ? {
      number: rule.n, title: rule.t, text: a[0], lang: a[3], layer: a[2],
      label: a[1] === null ? null : data.etichette[a[1]], url: "/regole/" + rule.n,
    } : {
      number: rule.n, title: rule.t, text: t ? shorten(t[0]) : "", lang: rule.it ? "it" : "en",
      layer: t ? t[3] : null, label: t ? data.etichette[t[2]] : null, url: "/regole/" + rule.n,
    };
    return new Response(JSON.stringify(body), { headers: { "Content-Type": "application/json" } });
  }
}

async function fromCopy(request, refresh) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  const fresh = fetch(request).then((response) => {
    if (response.ok && response.type === "basic") cache.put(request, response.clone());
    return response;
  });
  if (kept) {
    if (refresh) fresh.catch(() => null);  // scripts and styles: the copy now, the new file next time
    return kept;
  }
  return fresh;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname === "/sw.js") return;
  if (request.mode === "navigate") {
    event.respondWith(page(request, url));
  } else if (url.pathname.startsWith("/api/anteprima/")) {
    event.respondWith(preview(request, url));
  } else if (url.pathname.startsWith("/offline/")) {
    event.respondWith(fromCopy(request, false));  // immutable: the name holds the version
  } else if (url.pathname.startsWith("/static/") || url.pathname === "/manifest.webmanifest") {
    event.respondWith(fromCopy(request, true));
  }
});
