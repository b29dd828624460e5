/* Typo correction and completion for the offline search, as the server's (judge/search/spelling.py
   Speller, judge/search/query.py Engine.known and Engine.fix), over the speller's words the offline
   index carries (judge/search/offline_spelling.py: the words in the speller's ranking order, so a
   word's position is its rank). The server finds the words near a typed one through a deletes index;
   here, with 8,000 words, every word of a close enough length is measured with the same distance:
   the same words are found (a test compares the two on generated typos). */
(function (root) {
  "use strict";

  function prepare(ix) {
    var o = ix.ortografia;
    if (o.pronto) return o;
    o.lista = o.parole ? o.parole.split(" ") : [];
    o.rango = new Map(o.lista.map(function (w, i) { return [w, i]; }));
    // spelling.py Speller.sorted_words: code point order (the words are folded ASCII: the same in JS).
    o.alfabetiche = o.lista.slice().sort(function (a, b) { return a < b ? -1 : a > b ? 1 : 0; });
    o.vuote = new Set(ix.parole_vuote);  // analysis.py ALL_STOPS (the negations, under four letters, aside)
    o.radici = {};
    ["it", "en"].forEach(function (lang) {
      var ignote = new Set(o.radici_ignote[lang]), note = new Set(o.radici_note[lang]);
      Object.keys(ix.termini[lang]).forEach(function (k) { if (k.indexOf(" ") === -1 && !ignote.has(k)) note.add(k); });
      o.radici[lang] = note;
    });
    o.pronto = true;
    return o;
  }

  function chars(w) { return Array.from(w); }  // Python's len and indices count code points

  /* spelling.py osa_distance: optimal string alignment (a swap of neighbours counts 1), capped at ``limit``. */
  function osaDistance(a, b, limit) {
    if (Math.abs(a.length - b.length) >= limit) return limit;
    var prev2 = null, prev = [], i, j;
    for (j = 0; j <= b.length; j++) prev.push(j);
    for (i = 1; i <= a.length; i++) {
      var cur = [i];
      for (j = 1; j <= b.length; j++) {
        var cost = a[i - 1] === b[j - 1] ? 0 : 1;
        cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
        if (prev2 !== null && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cur[j] = Math.min(cur[j], prev2[j - 2] + 1);
      }
      if (Math.min.apply(null, cur) >= limit) return limit;
      prev2 = prev;
      prev = cur;
    }
    return Math.min(prev[prev.length - 1], limit);
  }

  function maxDistance(o, n) { return o.distanze[Math.min(n, o.distanze.length - 1)]; }

  function byRank(o) { return function (a, b) { return o.rango.get(a) - o.rango.get(b); }; }

  /* Speller.near: every word within ``maxDistance`` of ``word`` (itself at 0 when known), word -> distance. */
  function near(o, word) {
    var w = chars(word), limit = maxDistance(o, w.length), found = new Map();
    if (o.rango.has(word)) found.set(word, 0);
    if (!limit || w.length > o.lunghezza + limit) return found;
    o.lista.forEach(function (cand) {
      if (Math.abs(cand.length - w.length) > limit) return;
      var d = osaDistance(w, chars(cand), limit + 1);
      if (d <= limit) found.set(cand, d);
    });
    return found;
  }

  /* Speller.correct: the nearest words, the better ranked first, at most two; [] for a known word. */
  function correct(o, word) {
    if (o.rango.has(word)) return [];
    var found = near(o, word);
    if (!found.size) return [];
    var best = Math.min.apply(null, Array.from(found.values()));
    return Array.from(found.keys()).filter(function (w) { return found.get(w) === best; }).sort(byRank(o)).slice(0, 2);
  }

  /* Speller.complete: the better ranked words starting with ``prefix`` (of four letters or more), among the
     first 201 in alphabetical order, as the server's. */
  function complete(o, prefix) {
    if (chars(prefix).length < 4) return [];
    var list = o.alfabetiche, lo = 0, hi = list.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (list[mid] < prefix) lo = mid + 1; else hi = mid; }
    var out = [];
    for (var i = lo; i < list.length && list[i].slice(0, prefix.length) === prefix; i++) {
      out.push(list[i]);
      if (out.length > 200) break;
    }
    return out.filter(function (w) { return w !== prefix; }).sort(byRank(o)).slice(0, 2);
  }

  /* spelling.py english_forms: the English words an Italianised word may stand for, most likely first. */
  function englishForms(o, word) {
    var out = [];
    o.affini.forEach(function (p) { if (word.endsWith(p[0])) out.push(word.slice(0, word.length - p[0].length) + p[1]); });
    o.finali.forEach(function (ending) {
      if (word.endsWith(ending) && word.length - ending.length >= 3) {
        var r = word.slice(0, word.length - ending.length);
        if (r.length > 3 && r[r.length - 1] === r[r.length - 2]) out.push(r, r.slice(0, -1));  // "blinkkare"
        else out.push(r);
      }
    });
    return out;
  }

  var DIGITS = /^\p{Nd}+$/u, DIGIT = /\p{Nd}/u;
  // judge/search/analysis.py NOTATION_PATTERN, whole: a mana symbol or a power/toughness.
  var NOTATION = /^(?:\{(?:[A-Za-z0-9]{1,2}(?:\/[A-Za-z0-9]{1,2})?|CHAOS|chaos)\}|[+\-]?(?:\d{1,3}|[xX*])\/[+\-]?(?:\d{1,3}|[xX*]))$/;

  /* query.py Engine.known: a number, a speller's word, a stop word, or a stem the index knows. ``stem``:
     the search's stem(ix, word, lang) (null for a stop word). */
  function known(ix, w, stem) {
    var o = prepare(ix);
    if (DIGITS.test(w) || o.rango.has(w) || o.vuote.has(w)) return true;
    var si = stem(w, "it"), se = stem(w, "en");
    return (si !== null && o.radici.it.has(si)) || (se !== null && o.radici.en.has(se));
  }

  /* query.py Engine.fix: the words to search for ``w`` and the correction to suggest (null for none). */
  function fix(ix, w, stem) {
    var o = prepare(ix);
    if (NOTATION.test(w) && !known(ix, w, stem)) {
      var parts = w.match(/[a-z]{2,}|\d+/g) || [];
      return { alts: parts.length ? parts.filter(function (p, i) { return parts.indexOf(p) === i; }) : [w], suggestion: null };
    }
    if (chars(w).length < 4 || known(ix, w, stem) || DIGIT.test(w)) return { alts: [w], suggestion: null };
    var english = englishForms(o, w).filter(function (e) { return o.rango.has(e); });
    if (english.length) return { alts: english.slice(0, 1), suggestion: null };
    var completions = complete(o, w);
    if (completions.length) return { alts: completions, suggestion: null };
    var corrections = correct(o, w);
    if (corrections.length) return { alts: corrections, suggestion: corrections[0] };
    return { alts: [w], suggestion: null };
  }

  root.judgeOrtografia = {
    known: known, fix: fix,
    correct: function (ix, w) { return correct(prepare(ix), w); },
    complete: function (ix, w) { return complete(prepare(ix), w); }
  };
})(typeof self !== "undefined" ? self : this);
