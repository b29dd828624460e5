/* The search with no network: the server's ranking (judge/search/query.py) over the scores it
   computed ahead for the offline copy (judge/search/offline_index.py). A query becomes the same
   units as on the server (glossary terms, longest first, matched by stems in both languages or as
   typed; other words on their own), each unit's score is the sum of its terms' precomputed scores,
   and then, as the server does: coverage of the units, the Italian boost, rules that are only a name
   ranked lower unless they are what was typed, and the lead analytic index headwords and jargon give
   their rules. Not here: typo correction, quoted phrases, AND/OR/NOT, filters (the page says so).
   Depends on static/js/radici.js (the Italian stems). */
(function (root) {
  "use strict";
  var R = root.judgeRadici;

  function prepare(ix) {
    if (ix.pronto) return ix;
    ix.stops = new Set(ix.parole_vuote);
    ix.memo = new Map();
    ix.soloNome = new Set(ix.solo_nome);
    ix.pronto = true;
    return ix;
  }

  /* judge/search/analysis.py stem(word, lang): null for a stop word. */
  function stem(ix, w, lang) {
    if (ix.stops.has(w)) return null;
    if (lang === "it") return R.italianTerms(w, ix.stops)[0] || null;
    return ix.inglese[w] || w;
  }

  /* terms(text, lang): the text's stems, stop words dropped. */
  function terms(ix, text, lang) {
    if (lang === "it") return R.italianTerms(text, ix.stops);
    return R.tokens(text).filter(function (w) { return !ix.stops.has(w); }).map(function (w) { return ix.inglese[w] || w; });
  }

  /* Postings "document:score …" (delta-coded, base 36; scores on a log scale) as a Map document -> score. */
  function decode(ix, raw) {
    var out = new Map(), doc = 0;
    if (raw) {
      raw.split(" ").forEach(function (pair) {
        var i = pair.indexOf(":");
        doc += parseInt(pair.slice(0, i), 36);
        out.set(doc, Math.exp(parseInt(pair.slice(i + 1), 36) / ix.pesi.passi - ix.pesi.scarto));
      });
    }
    return out;
  }

  /* A term's scores (documents are 2 × rule position + 0 Italian, 1 English). */
  function scores(ix, lang, key) {
    var memoKey = lang + "|" + key;
    if (!ix.memo.has(memoKey)) ix.memo.set(memoKey, decode(ix, ix.termini[lang][key]));
    return ix.memo.get(memoKey);
  }

  // judge/search/analysis.py PT_PATTERN, on a folded word: power/toughness or a change to it.
  var POWER_TOUGHNESS = /^[+\-]?(?:\d{1,3}|[x*])\/[+\-]?(?:\d{1,3}|[x*])$/;

  /* judge/search/glossary.py Glossary.match: longest glossary terms in a word sequence,
     [start, end, Set of concept ids], by stems in either language or as typed (which wins a tie). */
  function glossaryMatch(ix, ws) {
    var g = ix.glossario, n = ws.length, found = [], i = 0;
    var stems = { it: ws.map(function (w) { return stem(ix, w, "it"); }), en: ws.map(function (w) { return stem(ix, w, "en"); }) };
    while (i < n) {
      var best = null;
      ["it", "en"].forEach(function (lang) {
        var seq = stems[lang];
        if (seq[i] === null) return;
        var key = [];
        for (var j = i; j < n && key.length < g.parole; j++) {
          if (seq[j] === null) continue;
          key.push(seq[j]);
          var ids = g.radici[lang][key.join(" ")];
          if (ids && (best === null || j + 1 > best.end)) best = { end: j + 1, ids: new Set(ids) };
          else if (ids && best !== null && j + 1 === best.end) ids.forEach(function (x) { best.ids.add(x); });
        }
      });
      var exact = null;
      for (var e = Math.min(n, i + g.parole * 2); e > i; e--) {
        var got = g.forme[ws.slice(i, e).join(" ")];
        if (got) { exact = { end: e, ids: new Set(got) }; break; }
      }
      if (exact && (best === null || exact.end >= best.end)) best = exact;
      if (best) { found.push([i, best.end, best.ids]); i = best.end; } else i++;
    }
    return found;
  }

  /* A unit's scores: the sum of its terms' (query.py _variants). */
  function unitScores(ix, keys) {
    var out = new Map();
    keys.forEach(function (k) {
      scores(ix, k[0], k[1]).forEach(function (s, doc) { out.set(doc, (out.get(doc) || 0) + s); });
    });
    return out;
  }

  function conceptUnit(ix, label, ids) {
    var seen = new Set(), keys = [];
    Array.from(ids).sort(function (a, b) { return a - b; }).forEach(function (cid) {
      ix.glossario.concetti[cid].forEach(function (k) {
        var id = k[0] + "|" + k[1];
        if (!seen.has(id)) { seen.add(id); keys.push(k); }
      });
    });
    return { label: label, scores: unitScores(ix, keys) };
  }

  /* query.py Engine._units, for a run of plain words. */
  function units(ix, ws) {
    var out = [], covered = new Set();
    glossaryMatch(ix, ws).forEach(function (m) {
      out.push(conceptUnit(ix, ws.slice(m[0], m[1]).join(" "), m[2]));
      for (var k = m[0]; k < m[1]; k++) covered.add(k);
    });
    ws.forEach(function (w, i) {
      if (covered.has(i)) return;
      var ids = new Set();
      glossaryMatch(ix, [w]).forEach(function (m) { m[2].forEach(function (x) { ids.add(x); }); });
      if (ids.size) { out.push(conceptUnit(ix, w, ids)); return; }
      var keys = [];
      ["it", "en"].forEach(function (lang) { var s = stem(ix, w, lang); if (s !== null) keys.push([lang, s]); });
      if (!keys.length) return;
      var unit = { label: w, scores: unitScores(ix, keys) };
      if (POWER_TOUGHNESS.test(w)) {  // "2/2" is also power and toughness, weaker (query.py W_PT_MEANING)
        if (!ix.memo.has("pt")) ix.memo.set("pt", decode(ix, ix.forza_costituzione));
        ix.memo.get("pt").forEach(function (s, doc) { unit.scores.set(doc, (unit.scores.get(doc) || 0) + s); });
      }
      out.push(unit);
    });
    return out;
  }

  /* judge/search/headwords.py Headwords.rules_for: rule position -> weight. */
  function rulesFor(ix, label) {
    var out = new Map(), folded = R.words(label).join(" ");
    ["it", "en"].forEach(function (lang) {
      var bucket = ix.rubriche[lang][terms(ix, label, lang).join(" ")];
      if (!bucket) return;
      var merged = {};
      if (Object.prototype.hasOwnProperty.call(bucket, folded)) merged = bucket[folded];
      else Object.keys(bucket).forEach(function (h) {
        Object.keys(bucket[h]).forEach(function (p) { merged[p] = (merged[p] || 0) + bucket[h][p]; });
      });
      var top = Math.max.apply(null, Object.keys(merged).map(function (p) { return merged[p]; }));
      Object.keys(merged).forEach(function (p) { out.set(+p, Math.max(out.get(+p) || 0, merged[p] / top)); });
    });
    return out;
  }

  function headwordRules(ix, us) {
    var acc = new Map();
    us.forEach(function (u) { rulesFor(ix, u.label).forEach(function (w, p) { acc.set(p, (acc.get(p) || 0) + w); }); });
    acc.forEach(function (w, p) { acc.set(p, w / us.length); });
    return acc;
  }

  /* Rule numbers, best first (query.py Engine._search, then layout.py rank). */
  function search(ix, query) {
    prepare(ix);
    var ws = R.words(query).slice(0, 32), w = ix.pesi;
    var us = units(ix, ws);
    if (!us.length) return [];
    var raw = new Map(), cov = new Map();
    us.forEach(function (u) {
      u.scores.forEach(function (s, doc) {
        if (s <= 0) return;
        raw.set(doc, (raw.get(doc) || 0) + s);
        cov.set(doc, (cov.get(doc) || 0) + 1);
      });
    });
    var named = ix.nomi[ws.join(" ")] || null, namedSet = new Set(named || []);
    var boost = named ? new Map() : headwordRules(ix, us);
    var best = new Map();
    raw.forEach(function (s, doc) {
      if (us.length > 1) { var c = Math.min(cov.get(doc) / us.length, 1); s *= 0.15 + 0.85 * c * c; }
      if (doc % 2 === 0) s *= w.italiano;
      if (ix.soloNome.has(doc) && !namedSet.has(doc)) s *= w.solo_nome;
      var pos = doc >> 1;
      if (boost.has(pos)) s *= 1 + w.rubrica * boost.get(pos);
      if (!best.has(pos) || best.get(pos) < s) best.set(pos, s);
    });
    return Array.from(best.entries()).sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; })
      .map(function (e) { return ix.regole[e[0]]; });
  }

  root.judgeRicercaOffline = { search: search, glossaryMatch: function (ix, ws) { return glossaryMatch(prepare(ix), ws); },
    terms: function (ix, text, lang) { return terms(prepare(ix), text, lang); } };
})(typeof self !== "undefined" ? self : this);
