/* The offline copy's pages: with no network, the service worker answers a rule page or a search it has
   not kept with templates/offline_regola.html or offline_cerca.html, and this script renders the rule
   (Italian and English, with their labels, and its subrules) or the search (the compact index kept
   on the device, analysed by static/js/radici.js) from the edition's data files. */
(function () {
  "use strict";
  var app = document.getElementById("offline-app");
  if (!app) return;

  var RULE_PATH = /^\/(?:regole\/|r\/|cr\/)?([1-9][0-9]{0,2}(?:\.[0-9]{1,3}[a-z]{0,2})?)$/i;
  var CITATION = /(^|[^\d.])([1-9]\d{2}(?:\.\d{1,3}[a-z]{0,2})?)(?![\d])/g;
  var LAYER_CLASS = { "ufficiale": "strato-ufficiale", "traduzione": "strato-traduzione", "comunità": "strato-comunita" };

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") e.textContent = attrs[k];
      else if (k === "class") e.className = attrs[k];
      else e.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) e.appendChild(c); });
    return e;
  }

  function load(url) {
    return fetch(url).then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); });
  }

  function ruleUrl(n) { return "/regole/" + n; }

  /* Text with the rule numbers it cites linked (only numbers of the edition). */
  function linked(text, byNumber) {
    var frag = document.createDocumentFragment(), last = 0, m;
    CITATION.lastIndex = 0;
    while ((m = CITATION.exec(text)) !== null) {
      var number = m[2], start = m.index + m[1].length;
      if (!byNumber.has(number)) continue;
      frag.appendChild(document.createTextNode(text.slice(last, start)));
      frag.appendChild(el("a", { href: ruleUrl(number), class: "cit", text: number }));
      last = start + number.length;
    }
    frag.appendChild(document.createTextNode(text.slice(last)));
    return frag;
  }

  function badge(data, t, extra) {
    return el("span", { class: "strato " + (LAYER_CLASS[t[3]] || "strato-ufficiale") + (extra ? " " + extra : ""), text: data.etichette[t[2]] });
  }

  function textBlock(t, lang, byNumber) {
    var box = el("div", { class: "testo", lang: lang });
    box.appendChild(el("p", {}, [linked(t[0], byNumber)]));
    t[1].forEach(function (ex) { box.appendChild(el("p", { class: "esempio" }, [linked(ex, byNumber)])); });
    return box;
  }

  function bilingual(data, rule, byNumber, compact) {
    var both = rule.it && rule.en;
    var box = el("div", { class: "bilingue" + (compact ? " compatto" : "") + (both ? "" : " solo") });
    [["it", rule.it], ["en", rule.en]].forEach(function (pair) {
      var t = pair[1];
      if (!t) return;
      var part = el(compact ? "div" : "section", { class: "lingua lingua-" + pair[0], "aria-label": pair[0] === "it" ? "Testo italiano" : "Testo inglese" });
      var label = el("p", { class: "versione" }, [badge(data, t)]);
      if (t[3] === "traduzione") label.appendChild(el("span", { class: "nota-strato", text: " non ufficiale: prevale l'inglese" + (t[4] ? "" : " · da aggiornare") }));
      if (t[3] === "ufficiale") label.appendChild(el("span", { class: "nota-strato", text: " fa fede" }));
      part.appendChild(label);
      part.appendChild(textBlock(t, pair[0], byNumber));
      box.appendChild(part);
    });
    return box;
  }

  function languageChoice() {
    var group = el("div", { class: "scelta-lingua", role: "group", "aria-label": "Testo da mostrare", "data-scelta-lingua": "" });
    group.appendChild(el("span", { class: "scelta-titolo", "aria-hidden": "true", text: "Mostra" }));
    [["it", "Italiano"], ["en", "Inglese"], ["entrambe", "Entrambi"]].forEach(function (c) {
      var now = document.documentElement.getAttribute("data-lingue") || "entrambe";
      group.appendChild(el("button", { type: "button", "data-lingue": c[0], "aria-pressed": String(now === c[0]), text: c[1] }));
    });
    return group;
  }

  function renderRule(data, number) {
    var byNumber = new Map(data.regole.map(function (r) { return [r.n, r]; }));
    var rule = byNumber.get(number);
    app.textContent = "";
    if (!rule) {
      app.appendChild(el("h1", { text: "Regola " + number + " non trovata" }));
      app.appendChild(el("p", { text: "La regola «" + number + "» non esiste nell'edizione del " + data.edizione.data + "." }));
      return;
    }
    document.title = rule.t + " (offline) · judge";
    var crumbs = el("nav", { class: "briciole", "aria-label": "Percorso" }, [el("a", { href: "/", text: "Regolamento" })]);
    var chain = [], p = rule.p;
    while (p && byNumber.has(p)) { chain.unshift(byNumber.get(p)); p = byNumber.get(p).p; }
    chain.forEach(function (c) {
      crumbs.appendChild(document.createTextNode(" › "));
      crumbs.appendChild(el("a", { href: ruleUrl(c.n), text: c.k === "capitolo" ? "Capitolo " + c.n : c.k === "sezione" ? c.t : c.n }));
    });
    app.appendChild(crumbs);
    app.appendChild(el("h1", { text: rule.t }));
    app.appendChild(el("p", { class: "avviso-offline", role: "status", text: "Senza rete: dalla copia offline dell'edizione del " + data.edizione.data + "." }));
    if (rule.it && rule.en) app.appendChild(languageChoice());
    if (rule.k === "regola" || rule.k === "sottoregola") app.appendChild(bilingual(data, rule, byNumber, false));
    // Subrules (for a section: its rules; for a chapter: its sections).
    var children = new Map();
    data.regole.forEach(function (r) { if (r.p) { if (!children.has(r.p)) children.set(r.p, []); children.get(r.p).push(r); } });
    var list = [];
    (function walk(n) { (children.get(n) || []).forEach(function (c) { list.push(c); if (rule.k !== "capitolo") walk(c.n); }); })(number);
    if (list.length) {
      app.appendChild(el("h2", { text: rule.k === "capitolo" ? "Sezioni" : rule.k === "sezione" ? "Regole della sezione" : "Sottoregole" }));
      var ol = el("ol", { class: rule.k === "capitolo" ? "sezioni lunga" : "regole" });
      list.forEach(function (c) {
        if (rule.k === "capitolo") { ol.appendChild(el("li", {}, [el("a", { href: ruleUrl(c.n), text: c.t })])); return; }
        var li = el("li", { class: "voce", id: "r-" + c.n });
        li.appendChild(el("h3", { class: "numero" }, [el("a", { href: ruleUrl(c.n), text: c.n })]));
        li.appendChild(bilingual(data, c, byNumber, true));
        ol.appendChild(li);
      });
      app.appendChild(ol);
    }
  }

  // --- the offline search ------------------------------------------------------------------------------
  var ITALIAN_BOOST = 1.5;

  function postings(ix, lang, stem, memo) {
    var key = lang + ":" + stem;
    if (memo.has(key)) return memo.get(key);
    var raw = ix.termini[lang][stem], out = [];
    if (raw) {
      var pos = 0;
      raw.split(" ").forEach(function (pair) {
        var i = pair.indexOf(":");
        pos += parseInt(pair.slice(0, i), 36);
        out.push([pos, parseInt(pair.slice(i + 1), 36)]);
      });
    }
    memo.set(key, out);
    return out;
  }

  /* The query's units: glossary terms (longest first, as typed) with every term of their concept, and
     single words with their Italian stem and English stem. */
  function units(ix, query, stops) {
    var R = window.judgeRadici, ws = R.words(query), out = [], i = 0;
    while (i < ws.length) {
      var found = null, len;
      for (len = Math.min(4, ws.length - i); len >= 1 && !found; len--) {
        var ids = ix.sinonimi[ws.slice(i, i + len).join(" ")];
        if (ids) found = { ids: ids, len: len };
      }
      if (found) {
        var u = { it: new Map(), en: new Map(), label: ws.slice(i, i + found.len).join(" ") };
        found.ids.forEach(function (cid) {
          ix.concetti[cid].forEach(function (term) {
            term[1].forEach(function (s) { u[term[0]].set(s, Math.max(u[term[0]].get(s) || 0, 1 / term[1].length)); });
          });
        });
        out.push(u);
        i += found.len;
        continue;
      }
      var w = ws[i++];
      if (stops.has(w)) continue;
      var unit = { it: new Map(), en: new Map(), label: w };
      unit.it.set(R.italianTerms(w, stops)[0] || w, 1);
      unit.en.set(ix.inglese[w] || w, 1);
      out.push(unit);
    }
    return out;
  }

  /* A question read as the server reads it (judge/search/frames.py): the rules its frames bring and
     the frame's own words; ws: folded words, ss: their Italian stems (null for a stop word). */
  function findPhrase(phrase, ws, ss) {
    function hit(tok, i) { return ws[i] === tok[0] || (tok[1] !== null && tok[1] === ss[i]); }
    for (var start = 0; start < ws.length; start++) {
      if (!hit(phrase[0], start)) continue;
      var at = [start], pos = start, ok = true;
      for (var t = 1; t < phrase.length && ok; t++) {
        ok = false;
        for (var i = pos + 1; i < Math.min(ws.length, pos + 3); i++) {
          if (hit(phrase[t], i)) { at.push(i); pos = i; ok = true; break; }
        }
      }
      if (ok) return at;
    }
    return null;
  }

  function readQuestion(ix, ws, ss) {
    var out = { rules: new Map(), frameWords: new Set() };
    if (!ix.cornici || ws.length < 2) return out;
    ix.cornici.forEach(function (f) {
      var said = null;
      f[0].some(function (p) { said = findPhrase(p, ws, ss); return said !== null; });
      if (!said) return;
      if (said.length > 1) said.forEach(function (i) { out.frameWords.add(ws[i]); });
      if (!f[1].every(function (g) { return g.some(function (p) { return findPhrase(p, ws, ss) !== null; }); })) return;
      said.forEach(function (i) { out.frameWords.add(ws[i]); });
      var w = 1;
      f[2].forEach(function (n) { out.rules.set(n, Math.max(out.rules.get(n) || 0, w)); w *= ix.pesi.regola_seguente; });
    });
    return out;
  }

  /* The rules of the questions most like this one (judge/search/learned.py: tf-idf cosine). */
  function learnedRules(ix, stems) {
    var out = new Map();
    if (!ix.domande || !ix.domande.length) return out;
    if (!ix._idf) {
      var df = new Map();
      ix.domande.forEach(function (q) { q[0].forEach(function (t) { df.set(t, (df.get(t) || 0) + 1); }); });
      ix._idf = new Map();
      df.forEach(function (k, t) { ix._idf.set(t, Math.log(1 + ix.domande.length / k)); });
      ix._norms = ix.domande.map(function (q) {
        return Math.sqrt(q[0].reduce(function (a, t) { return a + Math.pow(ix._idf.get(t), 2); }, 0)) || 1;
      });
    }
    var unknown = Math.log(1 + ix.domande.length), qn = 0;
    stems.forEach(function (t) { qn += Math.pow(ix._idf.has(t) ? ix._idf.get(t) : unknown, 2); });
    qn = Math.sqrt(qn) || 1;
    var sims = ix.domande.map(function (q, i) {
      var acc = 0;
      q[0].forEach(function (t) { if (stems.has(t)) acc += Math.pow(ix._idf.get(t), 2); });
      return [acc / (ix._norms[i] * qn), i];
    }).sort(function (a, b) { return b[0] - a[0] || a[1] - b[1]; }).slice(0, ix.pesi.vicine);
    sims.forEach(function (s) {
      if (s[0] < ix.pesi.somiglianza_minima) return;
      ix.domande[s[1]][1].forEach(function (n) { out.set(n, Math.max(out.get(n) || 0, s[0])); });
    });
    return out;
  }

  function search(ix, query) {
    var stops = new Set(ix.parole_vuote), memo = new Map(), R = window.judgeRadici;
    var ws = R.words(query);
    var ss = ws.map(function (w) { return stops.has(w) ? null : (R.italianTerms(w, stops)[0] || null); });
    var reading = readQuestion(ix, ws, ss);
    var us = units(ix, query, stops);
    var score = { it: new Map(), en: new Map() }, covered = { it: new Map(), en: new Map() };
    var weights = us.map(function (u) { return reading.frameWords.has(u.label) ? ix.pesi.parola_cornice : 1; });
    var total = weights.reduce(function (a, w) { return a + w; }, 0) || 1;
    us.forEach(function (u, k) {
      ["it", "en"].forEach(function (lang) {
        u[lang].forEach(function (weight, stem) {
          postings(ix, lang, stem, memo).forEach(function (p) {
            score[lang].set(p[0], (score[lang].get(p[0]) || 0) + p[1] * weight * weights[k]);
            if (!covered[lang].has(p[0])) covered[lang].set(p[0], new Set());
            covered[lang].get(p[0]).add(k);
          });
        });
      });
    });
    var best = new Map(), top = 0;
    ["it", "en"].forEach(function (lang) {
      score[lang].forEach(function (s, pos) {
        var cov = 0;
        covered[lang].get(pos).forEach(function (k) { cov += weights[k]; });
        cov /= total;
        var v = s * (0.15 + 0.85 * cov * cov) * (lang === "it" ? ITALIAN_BOOST : 1);
        if (!best.has(pos) || best.get(pos) < v) best.set(pos, v);
        top = Math.max(top, v);
      });
    });
    // As the server: the words' scores as a share of the best, plus the rules the question's frames and
    // the questions like it bring (judge/search/query.py).
    if (ix.pesi) {
      if (!ix._pos) ix._pos = new Map(ix.regole.map(function (n, i) { return [n, i]; }));
      var bonus = new Map();
      [[ix.pesi.cornice, reading.rules], [ix.pesi.domande, learnedRules(ix, new Set(ss.filter(Boolean)))]].forEach(function (src) {
        src[1].forEach(function (w, n) { if (ix._pos.has(n)) bonus.set(ix._pos.get(n), (bonus.get(ix._pos.get(n)) || 0) + src[0] * w); });
      });
      if (bonus.size) {
        best.forEach(function (v, pos) { best.set(pos, top > 0 ? v / top : v); });
        bonus.forEach(function (b, pos) { best.set(pos, (best.get(pos) || 0) + b); });
      }
    }
    return Array.from(best.entries()).sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; })
      .map(function (e) { return ix.regole[e[0]]; });
  }

  function renderSearch(data, ix, query) {
    var out = document.getElementById("risultati-offline");
    var box = document.getElementById("q");
    if (box) box.value = query;
    out.textContent = "";
    if (!query.trim()) return;
    document.title = query + " · Cerca (offline) · judge";
    var byNumber = new Map(data.regole.map(function (r) { return [r.n, r]; }));
    var direct = RULE_PATH.exec("/" + query.trim().replace(",", "."));
    if (direct && byNumber.has(direct[1])) { location.replace(ruleUrl(direct[1])); return; }
    var found = search(ix, query);
    out.appendChild(el("p", { class: "conteggio", role: "status", text: found.length ? found.length + " regole trovate (senza rete)" : "Nessuna regola trovata per «" + query + "» nella copia offline." }));
    var ol = el("ol", { class: "risultati", id: "risultati" });
    found.slice(0, 20).forEach(function (n) {
      var r = byNumber.get(n), t = r.it || r.en;
      var li = el("li", { class: "risultato" });
      li.appendChild(el("p", { class: "intestazione" }, [el("a", { href: ruleUrl(n) }, [el("strong", { text: n })]),
        document.createTextNode(" " + (r.t.indexOf(n) === 0 ? r.t.slice(n.length).trim() : r.t) + " "), t ? badge(data, t) : null]));
      if (t) li.appendChild(el("p", { class: "estratto", lang: r.it ? "it" : "en", text: t[0].length > 240 ? t[0].slice(0, 240) + "…" : t[0] }));
      ol.appendChild(li);
    });
    out.appendChild(ol);
  }

  function failed() {
    app.appendChild(el("p", { class: "errore", role: "alert", text: "La copia offline non è ancora completa su questo dispositivo: apri il sito una volta con la rete." }));
  }

  var path = location.pathname;
  if (app.getAttribute("data-pagina") === "cerca") {
    var q = new URLSearchParams(location.search).get("q") || "";
    Promise.all([load(app.getAttribute("data-dati")), load(app.getAttribute("data-indice"))])
      .then(function (both) { renderSearch(both[0], both[1], q); }, failed);
  } else {
    var m = RULE_PATH.exec(path);
    if (m) load(app.getAttribute("data-dati")).then(function (data) { renderRule(data, m[1].toLowerCase()); }, failed);
    else if (path !== "/offline/regola") {
      app.insertBefore(el("p", { class: "avviso-offline", role: "status", text: "Questa pagina non è nella copia offline: senza rete si leggono le regole, il glossario, l'indice analitico e il turno." }), app.firstChild.nextSibling);
    }
  }

  window.judgeOffline = { search: search };
})();
