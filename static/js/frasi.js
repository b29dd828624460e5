/* Phrases in quotes, for the offline search: the server's strict query (judge/search/query.py _field_query
   with strict=True: a phrase, or a single term, in the rule text only, ``body_it`` or ``body_en``) scored as
   its scorer scores it (judge/search/scoring.py: BM25 of the phrase's count, over the sum of its words' idf,
   Whoosh's length norms). The words' positions are not in the offline index: they are the rules' own texts,
   which the offline copy already keeps (the rules' data, judge/web/offline_data.py), analysed here as the
   server analyses them (static/js/radici.js, the offline index's English stems), once, on the first phrase.
   Depends on static/js/ricerca-offline.js (its terms) being loaded. */
(function (root) {
  "use strict";

  /* The rule texts' terms, per language: docs (document -> its terms in order), where (term -> documents),
     df (term -> how many documents), the average length. Documents are numbered as in the offline index
     (2 × rule position + 0 Italian, 1 English); ``rules``: the rules' data, in the index's rule order. */
  function bodies(ix, rules) {
    if (ix.corpi && ix.corpi.rules === rules) return ix.corpi;
    var S = root.judgeRicercaOffline, out = { rules: rules };
    ["it", "en"].forEach(function (lang, side) {
      var docs = new Map(), where = new Map(), total = 0;
      (rules || []).forEach(function (r, pos) {
        var t = r[lang];
        if (!t || !t[0].trim()) return;
        var seq = S.terms(ix, t[0], lang), doc = 2 * pos + side;
        docs.set(doc, seq);
        total += seq.length;
        new Set(seq).forEach(function (s) {
          if (!where.has(s)) where.set(s, []);
          where.get(s).push(doc);
        });
      });
      out[lang] = { docs: docs, where: where, average: total / ix.pesi.documenti || 1, memo: new Map() };
    });
    ix.corpi = out;
    return out;
  }

  /* judge/search/arrays.py norms: K1 × ((1 − B) + B × length / average), the length as Whoosh keeps it
     (in a byte: the smallest of its lengths not below the true one). */
  function norm(ix, body, length) {
    var table = ix.pesi.lunghezze, lo = 0, hi = table.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (table[mid] < length) lo = mid + 1; else hi = mid; }
    var kept = table[Math.min(lo, table.length - 1)];
    return ix.pesi.k1 * ((1 - ix.pesi.b) + ix.pesi.b * kept / body.average);
  }

  /* scoring.py Scorer.idf. */
  function idf(ix, df) { return Math.log(ix.pesi.documenti / (df + 1)) + 1; }

  /* The strict query's scores (document -> score) for the terms ``seq`` in ``lang``'s rule text: the
     occurrences of the phrase (of the term, for one), each document's BM25. */
  function strict(ix, rules, lang, seq) {
    var body = bodies(ix, rules)[lang], key = "frase|" + lang + "|" + seq.join(" ");
    if (body.memo.has(key)) return body.memo.get(key);
    var out = new Map(), k1 = ix.pesi.k1;
    var lists = seq.map(function (s) { return body.where.get(s) || []; });
    if (seq.length && lists.every(function (l) { return l.length; })) {
      var weight = lists.reduce(function (a, l) { return a + idf(ix, l.length); }, 0);
      lists[0].forEach(function (doc) {
        var words = body.docs.get(doc), tf = 0;
        for (var i = 0; i + seq.length <= words.length; i++) {
          var j = 0;
          while (j < seq.length && words[i + j] === seq[j]) j++;
          if (j === seq.length) tf++;
        }
        if (tf) out.set(doc, weight * tf * (k1 + 1) / (tf + norm(ix, body, words.length)));
      });
    }
    body.memo.set(key, out);
    return out;
  }

  root.judgeFrasi = { strict: strict };
})(typeof self !== "undefined" ? self : this);
