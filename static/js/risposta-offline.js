/* The quick answer, with no network: judge/search/answers.py answer_for, as the server chooses it. For a full
   question whose frame is read, the rule that answers its frame among the first results (frame_answer) with its
   answering sentence (answering_sentence); otherwise the analytic index entry of the first result that holds
   every unit of the query (best_entry, quick_answer), with its rule's text, or for a full question its answering
   sentence. Snippets have judge/search/snippets.py make_snippet's window; the texts are the rules' the copy
   keeps. static/js/ricerca-offline.js calls it with its ranking, its units and stems; offline.js shows it as
   templates/cerca.html does. The entries, the pattern that splits a text into sentences, the lengths and how
   many first results count come from the offline index (``voci``, ``risposta``: judge/search/offline_index.py).
   The marked words come back as parts ([text, marked]), never as HTML: the page makes text nodes of them.
   Depends on static/js/radici.js. */
(function (root) {
  "use strict";
  var R = root.judgeRadici;
  var BEFORE = 40;  // snippets.py make_snippet: the characters kept before the window's first marked word

  /* " ".join(text.split()): the spaces normalised. */
  function spaced(text) { return text.split(/\s+/).filter(Boolean).join(" "); }

  /* snippets.py make_snippet: a window of ``limit`` characters of ``text`` around the densest cluster of the
     words whose term (``stemOf``: folded word, language -> term or null) is in ``stems``; the window as text
     (``plain``) and as parts, each [text, marked], with «… » and « …» where it cuts. */
  function snippet(text, lang, stems, limit, stemOf) {
    text = spaced(text);
    var spans = [];
    R.spans(text).forEach(function (m) {
      var t = stemOf(R.fold(m[0]), lang);
      if (t !== null && stems.has(t)) spans.push([m[1], m[2]]);
    });
    var start = 0, end = text.length;
    if (text.length > limit && !spans.length) end = limit;
    else if (text.length > limit) {
      var bestI = 0, bestCount = 0, j = 0;  // the window of ``limit`` characters that covers the most matches
      for (var i = 0; i < spans.length; i++) {
        while (j < spans.length && spans[j][1] - spans[i][0] <= limit) j++;
        if (j - i > bestCount) { bestI = i; bestCount = j - i; }
      }
      start = Math.max(0, spans[bestI][0] - BEFORE);
      end = Math.min(text.length, start + limit);
      start = Math.max(0, Math.min(start, end - limit));
      if (start > 0) {
        var sp = text.indexOf(" ", start);
        if (sp >= 0 && sp < spans[bestI][0]) start = sp + 1;
      }
      if (end < text.length) {
        var back = text.lastIndexOf(" ", end - 1);
        if (back > start) end = back;
      }
    }
    var pre = start > 0 ? "… " : "", post = end < text.length ? " …" : "";
    var parts = pre ? [[pre, false]] : [], pos = start;
    spans.forEach(function (s) {
      if (s[0] < pos || s[0] < start || s[1] > end) return;
      if (s[0] > pos) parts.push([text.slice(pos, s[0]), false]);
      parts.push([text.slice(s[0], s[1]), true]);
      pos = s[1];
    });
    if (end > pos) parts.push([text.slice(pos, end), false]);
    if (post) parts.push([post, false]);
    return { plain: pre + text.slice(start, end) + post, parts: parts };
  }

  /* answers.py answering_sentence: the sentence of ``text`` sharing the most terms with ``stems`` (the first
     of the best), as a snippet of the answer's length. ``an``: the search's analysis ({terms, stem}). */
  function answeringSentence(ix, text, lang, stems, an) {
    var sentences = spaced(text).split(new RegExp(ix.risposta.fine_frase)).filter(function (x) { return x.trim(); });
    if (!sentences.length) sentences = [text];
    var best = sentences[0], most = -1;
    sentences.forEach(function (x) {
      var shared = 0;
      new Set(an.terms(x, lang)).forEach(function (t) { if (stems.has(t)) shared++; });
      if (shared > most) { best = x; most = shared; }
    });
    return snippet(best, lang, stems, ix.risposta.caratteri, an.stem);
  }

  /* answers.py frame_answer: among the first results (``ranked``: rule numbers, best first), the best ranked
     that is the first rule of a frame the question matched (``frames``: [{rules, asks}], in file order),
     else of any of its rules; with the sentence of its text that answers (``textOf``: rule number ->
     [text, lang] or null; ``subject``: {it, en} stems of what the question is about). Null for none. */
  function frameAnswer(ix, ranked, frames, subject, textOf, an) {
    var top = ranked.slice(0, ix.risposta.entro);
    for (var pass = 0; pass < 2; pass++) {
      for (var i = 0; i < top.length; i++) {
        var n = top[i], frame = null;
        for (var k = 0; k < frames.length && frame === null; k++) {
          var rules = frames[k].rules;
          if (rules.length && (n === rules[0] || (pass === 1 && rules.indexOf(n) !== -1))) frame = frames[k];
        }
        if (frame === null) continue;
        var shown = textOf(n);
        if (!shown) return null;
        var s = answeringSentence(ix, shown[0], shown[1], subject[shown[1]], an);
        return { number: n, lang: shown[1], text: shorten(shown[0], ix.risposta.caratteri_testo), sentence: s.plain,
          parts: s.parts, asks: frame.asks, entry: "", entryParts: [], entryLang: "" };
      }
    }
    return null;
  }

  /* The text a result shows (layout.py shown: English when asked for, otherwise Italian where there is one),
     as [text, language], from a rule of the rules' data (judge/web/offline_data.py). */
  function shownText(r, lingua) {
    var t = lingua !== "en" && r.it && r.it[0].trim() ? r.it : r.en || r.it;
    return t ? [t[0], t === r.it ? "it" : "en"] : null;
  }

  /* The analytic indexes' entries by rule position (the index's ``voci``: per language a line per entry in the
     file's order, «headword TAB topic TAB positions», an empty headword being the line before's), each
     {text, lang, terms}: Italian first, each language in the file's order, as answers.py best_entry meets them. */
  function entriesOf(ix) {
    if (ix.vociPerRegola) return ix.vociPerRegola;
    var out = new Map();
    ["it", "en"].forEach(function (lang) {
      var heading = "";
      (ix.voci && ix.voci[lang] ? ix.voci[lang].split("\n") : []).forEach(function (line) {
        var cells = line.split("\t");
        if (cells[0]) heading = cells[0];
        var entry = { text: heading + ": " + cells[1], lang: lang, terms: null };
        cells[2].split(" ").forEach(function (p) {
          var pos = parseInt(p, 36);
          if (!out.has(pos)) out.set(pos, []);
          out.get(pos).push(entry);
        });
      });
    });
    ix.vociPerRegola = out;
    return out;
  }

  /* answers.py best_entry: the entry of the rule at ``pos`` that holds the most of the query's units, then the
     most of the words as typed (``typed``: {it, en} stems), then the most stems (``stems``: {it, en}, the units'),
     the first of the best; null for none sharing a stem. With how many units it holds and its snippet. */
  function bestEntry(ix, pos, stems, units, typed, an) {
    var best = null, bestKey = [0, 0, 0];
    (entriesOf(ix).get(pos) || []).forEach(function (e) {
      if (e.terms === null) e.terms = new Set(an.terms(e.text, e.lang));
      var shared = new Set();
      e.terms.forEach(function (t) { if (stems[e.lang].has(t)) shared.add(t); });
      if (!shared.size) return;
      var held = units.filter(function (u) { return Array.from(u.stems[e.lang]).some(function (t) { return shared.has(t); }); }).length;
      var key = [held, Array.from(typed[e.lang]).filter(function (t) { return shared.has(t); }).length, shared.size];
      for (var k = 0; k < 3 && key[k] === bestKey[k]; k++);
      if (k < 3 && key[k] > bestKey[k]) { best = e; bestKey = key; }
    });
    if (best === null) return null;
    var s = snippet(best.text, best.lang, stems[best.lang], ix.risposta.caratteri_voce, an.stem);
    return { text: s.plain, parts: s.parts, lang: best.lang, units: bestKey[0] };
  }

  /* snippets.py shorten: the text, its spaces normalised, cut at a space before ``limit`` characters, with « …». */
  function shorten(text, limit) {
    text = spaced(text);
    if (text.length <= limit) return text;
    var cut = text.slice(0, limit), sp = cut.lastIndexOf(" ");
    return (sp >= 0 ? cut.slice(0, sp) : cut) + " …";
  }

  /* answers.py quick_answer: the first result's entry, when it holds every unit of the query and either the query
     has more than one unit or its word is a headword whose most named rules (``headwords``: rule position ->
     weight, ricerca-offline.js headwordRules), few, include the first result. */
  function entryAnswer(ix, pos, shown, units, stems, asked, an) {
    var n = units.length;
    if (n < 1) return null;
    var e = bestEntry(ix, pos, stems, units, asked.typed, an);
    if (e === null || e.units < n) return null;
    if (n < 2) {
      var tops = [];
      asked.headwords.forEach(function (w, p) { if (w >= 1) tops.push(p); });
      if (tops.indexOf(pos) === -1 || tops.length > ix.risposta.rubriche_massime) return null;
    }
    return { number: ix.regole[pos], lang: shown[1], text: shorten(shown[0], ix.risposta.caratteri_testo), sentence: "",
      parts: [], asks: "", entry: e.text, entryParts: e.parts, entryLang: e.lang };
  }

  /* The stems of the query's units (query.py: ``stems``), by language. */
  function unitStems(units) {
    var out = { it: new Set(), en: new Set() };
    units.forEach(function (u) { ["it", "en"].forEach(function (lang) { u.stems[lang].forEach(function (x) { out[lang].add(x); }); }); });
    return out;
  }

  /* answers.py answer_for: for a full question (``asked.full``) whose frame is read (``reading``: the frames it
     matched and the frame's words, ricerca-offline.js readQuestion), the answer to its frame; otherwise, or
     when none of its rules is among the first results, the first result's analytic index entry (entryAnswer),
     with its answering sentence for a full question. A sentence is chosen by the stems of the query's units
     (``units``) but the frame's words'. ``ranked``: rule numbers, best first; ``opts``: the search's (``regole``:
     the rules' data, in the index's order; ``lingua``); ``asked``: {full, typed: the stems of the words as typed,
     headwords: ricerca-offline.js headwordRules}. Null without the rules' data or an answer. */
  function answerFor(ix, ranked, reading, units, opts, an, asked) {
    if (!ix.risposta || !opts.regole || !ranked.length) return null;
    var textOf = function (n) { return shownText(opts.regole[ix.posizione.get(n)], opts.lingua); };
    var stems = unitStems(units), subject = unitStems(units);
    reading.frameWords.forEach(function (x) { ["it", "en"].forEach(function (lang) { subject[lang].delete(an.stem(x, lang)); }); });
    if (asked.full && reading.frames.length) {
      var framed = frameAnswer(ix, ranked, reading.frames, subject, textOf, an);
      if (framed !== null) return framed;
    }
    var shown = textOf(ranked[0]);
    if (!shown || !ix.voci) return null;
    var a = entryAnswer(ix, ix.posizione.get(ranked[0]), shown, units, stems, asked, an);
    if (a !== null && asked.full) {
      var s = answeringSentence(ix, shown[0], shown[1], subject[shown[1]], an);
      a.sentence = s.plain;
      a.parts = s.parts;
    }
    return a;
  }

  root.judgeRispostaOffline = { answerFor: answerFor, frameAnswer: frameAnswer, answeringSentence: answeringSentence, snippet: snippet,
    bestEntry: bestEntry, shorten: shorten };
})(typeof self !== "undefined" ? self : this);
