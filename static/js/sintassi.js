/* The search's small syntax, read in the browser as the server reads it (judge/search/syntax.py), for the
   offline search (static/js/ricerca-offline.js): "phrases", AND/OR/NOT (upper case) and && ||, -word
   (exclude) and +word (require). It never fails: a sign before a number or a symbol is Magic notation
   ("-1/-1", "+2", "{T}"), an unbalanced quote closes at the end, anything else is plain words.
   Depends on static/js/radici.js (the folded words). */
(function (root) {
  "use strict";
  var R = root.judgeRadici;

  var MAX_QUERY_CHARS = 300;  // syntax.py MAX_QUERY_CHARS
  var CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\ufeff]/g;
  // Phone keyboards turn "-" into a minus sign or a dash: before a number it is a minus.
  var DASH_BEFORE_NUMBER = /[\u2212\u2012\u2013\u2014](?=[\p{Nd}xX*])/gu;
  var TOKEN = /"[^"]*"?|[^\s"]+/g;
  var OPERATORS = new Map([["AND", "AND"], ["OR", "OR"], ["NOT", "NOT"], ["&&", "AND"], ["||", "OR"]]);
  // judge/search/analysis.py is_notation: the whole token is a symbol or power/toughness.
  var NOTATION = /^(?:\{(?:[A-Za-z0-9]{1,2}(?:\/[A-Za-z0-9]{1,2})?|CHAOS|chaos)\}|[+\-]?(?:\p{Nd}{1,3}|[xX*])\/[+\-]?(?:\p{Nd}{1,3}|[xX*]))$/u;
  var LETTER = /^\p{L}$/u;

  /* syntax.py clean: control characters out, dashes before numbers as minus, spaces collapsed, the length
     capped; [query, notes]. Lengths in characters (code points), as Python counts them. */
  function clean(query) {
    var notes = [];
    var q = (query || "").replace(CONTROL, " ").replace(DASH_BEFORE_NUMBER, "-").replace(/\s+/g, " ").trim();
    var chars = Array.from(q);
    if (chars.length > MAX_QUERY_CHARS) {
      var cut = chars.slice(0, MAX_QUERY_CHARS).join(""), space = cut.lastIndexOf(" ");
      q = (space >= 0 ? cut.slice(0, space) : cut) || cut;
      notes.push("Ricerca troppo lunga: considerati i primi " + MAX_QUERY_CHARS + " caratteri.");
    }
    return [q, notes];
  }

  function item(words, phrase, mode) { return { words: words, phrase: phrase, mode: mode }; }

  /* syntax.py _sign: [mode, rest] of a token with a leading "+"/"-", an operator only before a letter. */
  function sign(tok) {
    var second = tok.length > 1 ? String.fromCodePoint(tok.codePointAt(1)) : "";
    if (second && (tok[0] === "+" || tok[0] === "-") && LETTER.test(second) && !NOTATION.test(tok)) {
      return [tok[0] === "+" ? "must" : "not", tok.slice(1)];
    }
    return ["should", tok];
  }

  /* syntax.py parse: clauses (joined by OR) of items {words (folded), phrase, mode: should|must|not}. */
  function parse(q) {
    var clauses = [[]], pendingNot = false, pendingAnd = false, m;
    TOKEN.lastIndex = 0;
    while ((m = TOKEN.exec(q)) !== null) {
      var tok = m[0], op = OPERATORS.get(tok), last = clauses[clauses.length - 1], it, mode;
      if (op === "OR") {
        if (last.length) clauses.push([]);
        pendingNot = pendingAnd = false;
        continue;
      }
      if (op === "AND") {
        if (last.length && last[last.length - 1].mode === "should") last[last.length - 1].mode = "must";
        pendingAnd = last.length > 0;
        continue;
      }
      if (op === "NOT") { pendingNot = true; continue; }
      if (tok[0] === '"') {  // a phrase; an unbalanced quote closes at the end
        var ws = R.words(tok.replace(/^"+|"+$/g, ""));
        it = item(ws, ws.length > 1, "should");
        mode = "should";
      } else {
        var signed = sign(tok);
        mode = signed[0];
        it = item(R.words(signed[1]), false, "should");
      }
      if (!it.words.length) continue;
      if (pendingNot) mode = "not";
      else if (pendingAnd && mode === "should") mode = "must";
      it.mode = mode;
      pendingNot = pendingAnd = false;
      last.push(it);
    }
    return clauses.filter(function (c) { return c.length; });
  }

  /* syntax.py relaxed: the same words without phrases and requirements (exclusions stay). */
  function relaxed(clauses) {
    return clauses.map(function (c) {
      return c.map(function (it) { return item(it.words.slice(), false, it.mode === "not" ? "not" : "should"); });
    });
  }

  /* syntax.py truncate: the first ``limit`` words of the clauses. */
  function truncate(clauses, limit) {
    var out = [], left = limit;
    clauses.forEach(function (c) {
      var kept = [];
      for (var i = 0; i < c.length && left > 0; i++) {
        var ws = c[i].words.slice(0, left);
        left -= ws.length;
        kept.push(item(ws, c[i].phrase && ws.length > 1, c[i].mode));
      }
      if (kept.length) out.push(kept);
    });
    return out;
  }

  /* query.py Engine._units: a clause's units, each [unit, mode]. Plain words in a row are one run, where
     glossary terms are found; a phrase, a word required or excluded, is a unit of its own. ``build``: run
     (alternatives and weights of a run's words -> units), alone (a word's alternatives, weight -> unit or
     null), phrase (words -> unit or null), fix (a word -> its alternatives), weight (word, alternatives). */
  function clauseUnits(items, build) {
    var out = [], run = [], weights = [];
    function flush() {
      if (run.length) build.run(run, weights).forEach(function (u) { out.push([u, "should"]); });
      run = [];
      weights = [];
    }
    items.forEach(function (it) {
      if (it.phrase) {
        flush();
        var p = build.phrase(it.words);
        if (p) out.push([p, it.mode]);
        return;
      }
      it.words.forEach(function (x) {
        var a = build.fix(x), weight = build.weight(x, a);
        if (it.mode === "should") { run.push(a); weights.push(weight); return; }
        flush();
        var u = build.alone(a, weight);
        if (u) out.push([u, it.mode]);
      });
    });
    flush();
    return out;
  }

  function add(map, key, value) { map.set(key, (map.get(key) || 0) + value); }

  /* query.py Engine._evaluate: the documents the clauses admit (document -> score) and their positive units
     (a unit's ``scores``: document -> score). In a clause a document matches some positive unit and every
     required one, and no excluded one («NOT x» alone admits every document, ``build.every()``, scoring 0);
     a document admitted by several clauses adds their scores. */
  function evaluate(clauses, build) {
    var admitted = new Map(), positives = [];
    clauses.forEach(function (items) {
      var pos = [], must = [], nots = [], scores = new Map();
      clauseUnits(items, build).forEach(function (p) {
        (p[1] === "not" ? nots : pos).push(p[0]);
        if (p[1] === "must") must.push(p[0]);
      });
      if (pos.length) pos.forEach(function (u) { u.scores.forEach(function (s, doc) { add(scores, doc, s); }); });
      else if (nots.length) build.every().forEach(function (doc) { scores.set(doc, 0); });
      else return;
      positives.push.apply(positives, pos);
      scores.forEach(function (s, doc) {
        if (pos.length && !(s > 0)) return;
        if (must.some(function (u) { return !(u.scores.get(doc) > 0); })) return;
        if (nots.some(function (u) { return u.scores.get(doc) > 0; })) return;
        add(admitted, doc, s);
      });
    });
    return { admitted: admitted, positives: positives };
  }

  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

  root.judgeSintassi = { clean: clean, parse: parse, relaxed: relaxed, truncate: truncate, same: same, evaluate: evaluate,
    isNotation: function (tok) { return NOTATION.test(tok); } };
})(typeof self !== "undefined" ? self : this);
