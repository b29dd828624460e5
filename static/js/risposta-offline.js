/* The quick answer to a question's frame, with no network: judge/search/answers.py frame_answer and
   answering_sentence, with judge/search/snippets.py make_snippet's window, over the rules' texts the copy
   keeps. static/js/ricerca-offline.js calls it with its ranking and its stems; offline.js shows it as
   templates/cerca.html does. The pattern that splits a text into sentences, the sentence's length and how
   many first results count come from the offline index (``risposta``: judge/search/offline_index.py).
   The marked words come back as parts ([text, marked]), never as HTML: the page makes text nodes of them.
   Not here: the quick answer from an analytic index entry (answers.py quick_answer).
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
        return { number: n, lang: shown[1], sentence: s.plain, parts: s.parts, asks: frame.asks };
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

  /* answers.py answer_for, for a full question: the answer to its frame (``reading``: the frames it matched and
     the frame's words, ricerca-offline.js readQuestion), the sentence chosen by the stems of the query's units
     (``units``) but the frame's words'; ``opts``: the search's (``regole``: the rules' data, in the index's
     order; ``lingua``). Null without the rules' data or a frame. */
  function answerFor(ix, ranked, reading, units, opts, an) {
    if (!ix.risposta || !opts.regole || !reading.frames.length) return null;
    var subject = { it: new Set(), en: new Set() };
    units.forEach(function (u) { ["it", "en"].forEach(function (lang) { u.stems[lang].forEach(function (x) { subject[lang].add(x); }); }); });
    reading.frameWords.forEach(function (x) { ["it", "en"].forEach(function (lang) { subject[lang].delete(an.stem(x, lang)); }); });
    return frameAnswer(ix, ranked, reading.frames, subject, function (n) { return shownText(opts.regole[ix.posizione.get(n)], opts.lingua); }, an);
  }

  root.judgeRispostaOffline = { answerFor: answerFor, frameAnswer: frameAnswer, answeringSentence: answeringSentence, snippet: snippet };
})(typeof self !== "undefined" ? self : this);
