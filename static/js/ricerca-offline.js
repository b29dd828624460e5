/* The search with no network: the server's ranking (judge/search/query.py) over the scores it
   computed ahead for the offline copy (judge/search/offline_index.py). A query becomes the same
   units as on the server (glossary terms, longest first, matched by stems in both languages or as
   typed; other words on their own), each unit's score is the sum of its terms' precomputed scores,
   and then, as the server does: coverage of the units (rarer units weigh more), the Italian boost,
   rules that are only a name ranked lower unless they are what was typed, the lead analytic index
   headwords and jargon give their rules, and what a question brings beyond its words
   (judge/search/question.py): its frame's own words weigh less, the rules answering its frame and
   those of the questions like it are added; the cards it names (judge/cards/mentions.py,
   judge/search/named_cards.py) are taken out of its words and bring their rules; a word the rules don't
   know is corrected or completed as the server does (static/js/ortografia.js), and the page suggests the
   correction. The query's syntax is the server's (static/js/sintassi.js: phrases in quotes, scored in the rules'
   texts by static/js/frasi.js; AND/OR/NOT, -word, +word), and so are the language, chapter and section filters.
   The rules a longer query cites by number are searched on their number, as the server does (static/js/citazioni.js).
   The quick answer is the server's (static/js/risposta-offline.js): to a full question's frame, or from the first
   result's analytic index entry.
   Depends on static/js/radici.js (the Italian stems), static/js/ortografia.js (the typos), sintassi.js, frasi.js,
   citazioni.js and risposta-offline.js. */
(function (root) {
  "use strict";
  var R = root.judgeRadici;

  function prepare(ix) {
    if (ix.pronto) return ix;
    ix.stops = new Set(ix.parole_vuote);
    ix.memo = new Map();
    ix.soloNome = new Set(ix.solo_nome);
    ix.posizione = new Map(ix.regole.map(function (n, i) { return [n, i]; }));
    ix.pronto = true;
    return ix;
  }

  /* judge/search/analysis.py stem(word, lang): null for a stop word. */
  function stem(ix, w, lang) {
    if (ix.stops.has(w)) return null;
    if (lang === "it") return R.italianTerms(w, ix.stops)[0] || null;
    return ix.inglese[w] || R.stemEnglish(w);  // the index's stems of the rules' words, the stemmer for others
  }

  /* terms(text, lang): the text's stems, stop words dropped. */
  function terms(ix, text, lang) {
    if (lang === "it") return R.italianTerms(text, ix.stops);
    return R.tokens(text).filter(function (w) { return !ix.stops.has(w); }).map(function (w) { return ix.inglese[w] || R.stemEnglish(w); });
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

  /* The stems a unit asks for, by language, from its terms ([language, stems joined by spaces]): query.py
     Unit.stems, the words the quick answer marks. */
  function stemsOf(keys) {
    var out = { it: new Set(), en: new Set() };
    keys.forEach(function (k) { if (k[1]) k[1].split(" ").forEach(function (x) { out[k[0]].add(x); }); });
    return out;
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
    // A concept whose every term is stop words searches nothing: no unit, as the server's (query None).
    return keys.length ? { label: label, scores: unitScores(ix, keys), stems: stemsOf(keys) } : null;
  }

  /* A unit weighing ``weight`` (a frame's word weighs less): its scores scaled, as the server's boost. */
  function weighed(unit, weight) {
    if (unit === null) return null;
    unit.weight = weight;
    if (weight !== 1) {
      var scaled = new Map();
      unit.scores.forEach(function (s, doc) { scaled.set(doc, s * weight); });
      unit.scores = scaled;
    }
    return unit;
  }

  /* query.py Engine._units, for a run of plain words: ``alts``, each word's alternatives (the word, or what
     Engine.fix searches for it: ortografia.js), ``weights``, each word's (a frame's word and a corrected one
     weigh less). The glossary terms are found among the first alternatives. */
  function units(ix, alts, weights) {
    var out = [], covered = new Set(), ws = alts.map(function (a) { return a[0]; });
    glossaryMatch(ix, ws).forEach(function (m) {
      var w = Math.min.apply(null, weights.slice(m[0], m[1]));
      var unit = weighed(conceptUnit(ix, ws.slice(m[0], m[1]).join(" "), m[2]), w);
      if (unit) out.push(unit);
      for (var k = m[0]; k < m[1]; k++) covered.add(k);
    });
    alts.forEach(function (a, i) {
      if (covered.has(i)) return;
      // A corrected word may be a glossary term on its own ("travolgre" -> "travolgere").
      var ids = new Set();
      a.forEach(function (x) { glossaryMatch(ix, [x]).forEach(function (m) { m[2].forEach(function (c) { ids.add(c); }); }); });
      if (ids.size) {
        var concept = weighed(conceptUnit(ix, a[0], ids), weights[i]);
        if (concept) out.push(concept);
        return;
      }
      var unit = wordUnit(ix, a, weights[i]);
      if (unit) out.push(unit);
    });
    return out;
  }

  /* query.py Engine._word_unit: a word (``a``: its alternatives) in both languages. */
  function wordUnit(ix, a, weight) {
    var keys = [];
    a.forEach(function (x) {
      ["it", "en"].forEach(function (lang) { var s = stem(ix, x, lang); if (s !== null) keys.push([lang, s]); });
    });
    if (!keys.length) return null;
    var unit = { label: a[0], scores: unitScores(ix, keys), stems: stemsOf(keys) };
    if (a.some(function (x) { return POWER_TOUGHNESS.test(x); })) {  // "2/2" is also power and toughness, weaker (query.py W_PT_MEANING)
      if (!ix.memo.has("pt")) ix.memo.set("pt", decode(ix, ix.forza_costituzione));
      ix.memo.get("pt").forEach(function (s, doc) { unit.scores.set(doc, (unit.scores.get(doc) || 0) + s); });
      if (ix.risposta) ix.risposta.forza_costituzione.forEach(function (k) { unit.stems[k[0]].add(k[1]); });
    }
    return weighed(unit, weight);
  }

  /* A word required or excluded (query.py Engine._units): the glossary concept its first alternative is,
     else the word. */
  function aloneUnit(ix, a, weight) {
    var ids = new Set();
    glossaryMatch(ix, [a[0]]).forEach(function (m) { m[2].forEach(function (c) { ids.add(c); }); });
    return ids.size ? weighed(conceptUnit(ix, a[0], ids), weight) : wordUnit(ix, a, weight);
  }

  /* query.py Engine._phrase_unit: words in quotes, strictly in the rule text (static/js/frasi.js), in both
     languages, and strictly every term of the glossary concept they are, if they are one. */
  function phraseUnit(ix, rules, ws) {
    var scores = new Map(), any = false, stems = { it: new Set(), en: new Set() };
    function add(lang, seq) {
      if (!seq.length) return;
      any = true;
      seq.forEach(function (x) { stems[lang].add(x); });
      root.judgeFrasi.strict(ix, rules, lang, seq).forEach(function (s, doc) { scores.set(doc, (scores.get(doc) || 0) + s); });
    }
    ["it", "en"].forEach(function (lang) {
      add(lang, ws.map(function (x) { return stem(ix, x, lang); }).filter(function (s) { return s !== null; }));
    });
    glossaryMatch(ix, ws).forEach(function (m) {
      if (m[0] !== 0 || m[1] !== ws.length) return;
      var seen = new Set();
      Array.from(m[2]).sort(function (a, b) { return a - b; }).forEach(function (cid) {
        ix.glossario.concetti[cid].forEach(function (k) {
          if (seen.has(k[0] + "|" + k[1])) return;
          seen.add(k[0] + "|" + k[1]);
          add(k[0], k[1] ? k[1].split(" ") : []);
        });
      });
    });
    return any ? { label: '"' + ws.join(" ") + '"', scores: scores, weight: 1, stems: stems } : null;
  }

  /* Every document: a rule's text in a language (in the rules' data; without it, every rule in both). */
  function documents(ix, rules) {
    if (!ix.documenti || ix.documenti.rules !== rules) {
      ix.documenti = [];
      ix.documenti.rules = rules;
      ix.regole.forEach(function (n, pos) {
        [2 * pos, 2 * pos + 1].forEach(function (doc) { if (isDocument(rules, doc)) ix.documenti.push(doc); });
      });
    }
    return ix.documenti;
  }

  /* Whether a document is: its rule has a text in its language. */
  function isDocument(rules, doc) {
    var r = rules && rules[doc >> 1], t = r && (doc % 2 ? r.en : r.it);
    return !r || Boolean(t && t[0].trim());
  }

  /* query.py Engine._search: the rules a longer query cites by number (static/js/citazioni.js, as the server
     finds them once the query's «704,5a» reads «704.5a»), each a unit that scores the server's weight of a
     number in the rule's documents; and the query's text with the cited numbers blanked out, which the words,
     the cards and the question's frame are read from (the text with «704.5a» as written where no rule is cited). */
  function citedRules(ix, q, rules) {
    var C = root.judgeCitazioni;
    if (!C || !ix.pesi.numero) return { text: q, units: [] };
    var ref = C.withRuleDots(q), cites = C.findCitations(ref), units = [], missing = [];
    cites.forEach(function (c) {
      c.numbers.slice(0, 5).forEach(function (n) {
        var pos = ix.posizione.get(n), scores = new Map();
        if (pos === undefined) {
          c.missing = true;
          if (missing.indexOf(n) < 0) missing.push(n);
          return;
        }
        [2 * pos, 2 * pos + 1].forEach(function (doc) { if (isDocument(rules, doc)) scores.set(doc, ix.pesi.numero); });
        units.push({ label: n, scores: scores, weight: 1, stems: { it: new Set(), en: new Set() } });
      });
    });
    var text = ref.split("");  // UTF-16 units, as the spans count
    cites.forEach(function (c) {
      var end = c.end;
      if (c.missing) {  // query.py _letters_after: the letters a citation of no rule was meant to go on with
        MORE_LETTERS.lastIndex = end;
        var m = MORE_LETTERS.exec(ref);
        if (m) end = MORE_LETTERS.lastIndex;
      }
      for (var i = c.start; i < end; i++) text[i] = " ";
    });
    return { text: text.join(""), units: units, missing: missing };
  }
  var REFERENCE_WORDS = new Set(["vedi", "see", "la", "the", "regola", "regole", "rule", "rules", "cr"]);
  var MORE_LETTERS = /(?:\s*(?:\/|,|\be\b|\bed\b|\bo\b|\band\b|\bor\b)\s*[a-z](?![\w\/]))+/iy;

  /* layout.py Layout.filter: the documents the search's filters allow (language, chapter, section; as
     query.py Engine.search checks them), or null for no filter. A rule's chapter is its number's first
     digit, its section its first three. */
  function allowedBy(ix, filters) {
    var f = filters || {}, lang = f.lingua === "it" || f.lingua === "en" ? f.lingua : null;
    var chapter = /^[1-9]$/.test(f.capitolo || "") ? f.capitolo : null;
    var section = /^[1-9]\p{Nd}{2}$/u.test(f.sezione || "") ? f.sezione : null;
    if (!lang && !chapter && !section) return null;
    return function (doc) {
      var n = ix.regole[doc >> 1];
      return (!lang || (doc % 2 === 1) === (lang === "en")) && (!chapter || n[0] === chapter) && (!section || n.slice(0, 3) === section);
    };
  }

  /* query.py Engine._rarity: how much a unit weighs in the coverage (rarer units carry the subject). */
  function rarity(ix, unit) {
    if (!ix.pesi.rarita) return 1;
    var df = 0;
    unit.scores.forEach(function (s) { if (s > 0) df++; });
    return Math.pow(Math.log(1 + ix.pesi.documenti / (1 + df)), ix.pesi.rarita);
  }

  // --- a question read as the server reads it (judge/search/question.py) ----------------------------------
  var MAX_GAP = 2;  // frames.py: words allowed between two words of a phrase

  /* frames.py _find: where a phrase ([folded word, Italian stem or null] tokens) is in the question,
     its words in order, at most MAX_GAP apart; ws: the question's folded words, ss: their stems. */
  function findPhrase(phrase, ws, ss) {
    function hit(tok, i) { return ws[i] === tok[0] || (tok[1] !== null && tok[1] === ss[i]); }
    for (var start = 0; start < ws.length; start++) {
      if (!hit(phrase[0], start)) continue;
      var at = [start], pos = start, ok = true;
      for (var t = 1; t < phrase.length && ok; t++) {
        ok = false;
        for (var i = pos + 1; i < Math.min(ws.length, pos + 2 + MAX_GAP); i++) {
          if (hit(phrase[t], i)) { at.push(i); pos = i; ok = true; break; }
        }
      }
      if (ok) return at;
    }
    return null;
  }

  /* frames.py read: the frames the question matches, in file order (each {rules, asks}: what it asks, from
     the index's ``risposta``), the rules they bring (rule -> weight) and the frame's own words. */
  function readQuestion(ix, ws, ss, about) {
    var out = { frames: [], rules: new Map(), frameWords: new Set() };
    if (ws.length < 2) return out;
    // The subject is looked for in the question, then in what each named card is, apart (frames.py read).
    var sws = ws.slice(), sss = ss.slice();
    (about || []).forEach(function (a) {
      var more = R.words(a);
      for (var g = 0; g <= MAX_GAP; g++) { sws.push(""); sss.push(null); }
      more.forEach(function (x) { sws.push(x); sss.push(stem(ix, x, "it")); });
    });
    ix.cornici.forEach(function (f, row) {
      var said = null;
      f[0].some(function (p) { said = findPhrase(p, ws, ss); return said !== null; });
      if (!said) return;
      if (said.length > 1) said.forEach(function (i) { out.frameWords.add(ws[i]); });
      if (!f[1].every(function (g) { return g.some(function (p) { return findPhrase(p, sws, sss) !== null; }); })) return;
      said.forEach(function (i) { out.frameWords.add(ws[i]); });
      out.frames.push({ rules: f[2], asks: ix.risposta ? ix.risposta.chiede[ix.risposta.cornici[row]] || "" : "" });
      var w = 1;
      f[2].forEach(function (n) { out.rules.set(n, Math.max(out.rules.get(n) || 0, w)); w *= ix.pesi.regola_seguente; });
    });
    return out;
  }

  /* learned.py Likeness: tf-idf cosine over Italian stems, built once per index for each reading. */
  function likeness(asked) {
    var df = new Map(), idf = new Map();
    asked.forEach(function (q) { q[0].forEach(function (t) { df.set(t, (df.get(t) || 0) + 1); }); });
    df.forEach(function (k, t) { idf.set(t, Math.log(1 + asked.length / k)); });
    var norms = asked.map(function (q) {
      return Math.sqrt(q[0].reduce(function (a, t) { return a + Math.pow(idf.get(t), 2); }, 0)) || 1;
    });
    return { asked: asked, idf: idf, norms: norms };
  }

  /* learned.py Memory.rules_for: the rules of the questions most like this one. A full question meets every
     question, each likeness times the question's factor (its third item; a situation has none), and a rule weighs
     the likenesses of the near questions that name it, added up to 1 at most; a few words meet the
     situations only (no factor), a rule weighing the likeness of the nearest that names it. */
  function learnedRules(ix, stems, full) {
    var out = new Map();
    if (!ix.domande.length) return out;
    if (!ix.somiglianze) {
      ix.somiglianze = { tutte: likeness(ix.domande),
        situazioni: likeness(ix.domande.filter(function (q) { return q.length < 3; })) };
    }
    var l = full ? ix.somiglianze.tutte : ix.somiglianze.situazioni, asked = l.asked;
    if (!asked.length) return out;
    var unknown = Math.log(1 + asked.length), qn = 0;
    stems.forEach(function (t) { qn += Math.pow(l.idf.has(t) ? l.idf.get(t) : unknown, 2); });
    qn = Math.sqrt(qn) || 1;
    var sims = [];
    asked.forEach(function (q, i) {
      var acc = 0;
      q[0].forEach(function (t) { if (stems.has(t)) acc += Math.pow(l.idf.get(t), 2); });
      if (acc > 0 && acc / (l.norms[i] * qn) >= ix.pesi.somiglianza_minima) sims.push([acc / (l.norms[i] * qn) * (q.length > 2 ? q[2] : 1), i]);
    });
    sims.sort(function (a, b) { return b[0] - a[0] || a[1] - b[1]; })
      .slice(0, full ? ix.pesi.vicine : ix.pesi.vicine_parole).forEach(function (s) {
        asked[s[1]][1].forEach(function (n) { out.set(n, full ? (out.get(n) || 0) + s[0] : Math.max(out.get(n) || 0, s[0])); });
      });
    out.forEach(function (w, n) { out.set(n, Math.min(1, w)); });
    return out;
  }


  // --- the cards a question names (judge/cards/mentions.py, judge/search/named_cards.py) ------------------
  // judge/cards/names.py SPELLED_OUT: letters with no Unicode decomposition, as typed without them.
  var SPELLED_OUT = { "æ": "ae", "Æ": "Ae", "œ": "oe", "Œ": "Oe", "ø": "o", "Ø": "O", "ß": "ss", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D" };
  var SPELLED_RE = /[æÆœŒøØßłŁđĐ]/g;

  /* judge/cards/names.py name_words: a name's folded words. */
  function nameWords(text) {
    return R.words(R.fold(text).replace(SPELLED_RE, function (c) { return SPELLED_OUT[c]; }));
  }

  /* The index's cards (offline_cards.py): folded name -> [card, "1" always a name | "2" if typed as one]. */
  function cardNames(ix) {
    if (ix.nomiCarte) return ix.nomiCarte;
    var c = ix.carte, sets = c.regole ? c.regole.split(" ") : [], abouts = c.descrizione ? c.descrizione.split(" ") : [];
    var out = new Map();
    (c.schede ? c.schede.split("\n") : []).forEach(function (line, i) {
      var names = line.slice(1).split("|"), italian = line[0] === "i";
      var card = { name: names[italian ? 1 : 0].slice(1), english: italian ? names[0].slice(1) : null, set: parseInt(sets[i], 36),
        about: abouts.length ? c.descrizioni[parseInt(abouts[i], 36)] : "" };
      names.forEach(function (n) { if (n[0] !== "0") out.set(nameWords(n.slice(1)).join(" "), [card, n[0]]); });
    });
    ix.nomiCarte = out;
    return out;
  }

  /* A card's rules as the server weighs them: rule number -> weight. */
  function cardRules(ix, card) {
    var out = new Map(), set = ix.carte.insiemi[card.set];
    if (set) set.split(" ").forEach(function (p) {
      var i = p.indexOf(":");
      out.set(ix.regole[parseInt(p.slice(0, i), 36)], parseFloat(p.slice(i + 1)));
    });
    return out;
  }

  function isUpper(ch) { return ch !== ch.toLowerCase() && ch === ch.toUpperCase(); }

  /* mentions.py mentioned: the cards ``text`` names, in the order written, the longest name first where
     names overlap; a name counts always, or ("2") only typed as a name: several words, each long one
     (stop words aside) with a capital, or one word with a capital (a word the rules write only as a name). */
  function mentioned(ix, text) {
    var names = cardNames(ix), c = ix.carte, toks = [];
    R.spans(text).forEach(function (m) { nameWords(m[0]).forEach(function (w) { toks.push([w, m[1], m[2]]); }); });
    function capital(t) { return isUpper(String.fromCodePoint(text.codePointAt(t[1]))); }
    function typed(i, j) {
      if (i === j) return capital(toks[i]);
      var long = toks.slice(i, j + 1).filter(function (t) { return t[0].length >= c.lunghe && !ix.stops.has(t[0]); });
      return long.length > 0 && long.every(capital);
    }
    var found = new Map();
    for (var i = 0; i < toks.length; i++) {
      var key = "";
      for (var j = i; j < Math.min(toks.length, i + c.parole); j++) {
        key = j > i ? key + " " + toks[j][0] : toks[i][0];
        var hit = names.get(key);
        if (hit && (hit[1] === "1" || typed(i, j))) found.set(i, [j, hit[0]]);
      }
    }
    var out = [];
    for (var k = 0; k < toks.length && out.length < c.carte; k++) {
      if (!found.has(k)) continue;
      var f = found.get(k);
      out.push({ card: f[1], start: toks[k][1], end: toks[f[0]][2] });
      k = f[0];
    }
    return out;
  }

  /* named_cards.py named_cards: the question without the cards' names, the cards, their rules (number -> weight). */
  function namedCards(ix, text) {
    var out = { text: text, cards: [], rules: new Map(), about: [] };
    if (!ix.carte) return out;
    var found = mentioned(ix, text);
    found.slice().reverse().forEach(function (m) { out.text = out.text.slice(0, m.start) + " " + out.text.slice(m.end); });
    found.forEach(function (m) {
      if (out.cards.indexOf(m.card) !== -1) return;
      out.cards.push(m.card);
      if (m.card.about) out.about.push(m.card.about);
      cardRules(ix, m.card).forEach(function (w, n) { if (w > (out.rules.get(n) || 0)) out.rules.set(n, w); });
    });
    return out;
  }

  /* question.py candidate_rules: rule position -> what it adds, as a share of the best (``ss``: the stems of
     the query as typed, card names and all, as the questions learned from were written). */
  function candidates(ix, reading, ss, cards, full) {
    var out = new Map(), stems = new Set(ss.filter(function (s) { return s !== null; }));
    [[full ? ix.pesi.domande : ix.pesi.domande_parole, learnedRules(ix, stems, full)], [ix.carte ? ix.carte.peso : 0, cards.rules],
      [ix.pesi.cornice, reading.rules]].forEach(function (src) {
      if (!src[0]) return;
      src[1].forEach(function (w, n) {
        var pos = ix.posizione.get(n);
        if (pos !== undefined) out.set(pos, (out.get(pos) || 0) + src[0] * w);
      });
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
    us.forEach(function (u) { rulesFor(ix, u.label.replace(/^"+|"+$/g, "")).forEach(function (w, p) { acc.set(p, (acc.get(p) || 0) + w); }); });
    acc.forEach(function (w, p) { acc.set(p, w / us.length); });
    return acc;
  }

  /* query.py Engine._search, then layout.py rank: the rule numbers, best first, the «Forse cercavi» the server
     would show (null for none) and its notes. The query's syntax is the server's (static/js/sintassi.js);
     ``options``: ``regole``, the rules' data (the texts phrases in quotes are looked for in: static/js/frasi.js),
     and the filters ``lingua``, ``capitolo``, ``sezione`` (cerca.html's). */
  function answer(ix, query, options) {
    prepare(ix);
    var opts = options || {}, w = ix.pesi, Y = root.judgeSintassi, cleaned = Y.clean(query);
    var notes = cleaned[1], cited = citedRules(ix, cleaned[0], opts.regole);
    // query.py: a cited number that names no rule is said so (its first three).
    (cited.missing || []).slice(0, 3).forEach(function (n) { notes.push("La regola " + n + " non esiste."); });
    // citations.py as_rule_query: «vedi 704.5o» is only a reference, to no rule: nothing is searched (riferimenti: nessuno).
    if (cited.missing && cited.missing.length && !cited.units.length &&
        R.words(cited.text).every(function (x) { return REFERENCE_WORDS.has(x); })) {
      return { rules: [], suggestion: null, notes: notes, quick: null, nearestOf: cited.missing[0] };
    }
    var q = cited.text, typedWords = R.words(q), cards = namedCards(ix, q);
    var all = R.words(cards.text);
    var reading = readQuestion(ix, all, all.map(function (x) { return stem(ix, x, "it"); }), cards.about);
    var clauses = Y.parse(cards.text);
    if (clauses.reduce(function (a, c) { return a + c.reduce(function (b, it) { return b + it.words.length; }, 0); }, 0) > w.parole) {
      clauses = Y.truncate(clauses, w.parole);  // the words searched: the first syntax.py MAX_WORDS, as the server's
      notes.push("Ricerca troppo lunga: considerate le prime " + w.parole + " parole.");
    }
    // Typos corrected, words typed halfway completed (query.py Engine.fix), where the copy has the speller's words.
    var O = root.judgeOrtografia, corrections = new Map(), stemOf = function (x, lang) { return stem(ix, x, lang); };
    var build = {
      run: function (alts, weights) { return units(ix, alts, weights); },
      alone: function (a, weight) { return aloneUnit(ix, a, weight); },
      phrase: function (ws) { return phraseUnit(ix, opts.regole, ws); },
      every: function () { return documents(ix, opts.regole); },
      fix: function (x) {
        var a = O && ix.ortografia ? O.fix(ix, x, stemOf).alts : [x];
        if (a.length !== 1 || a[0] !== x) corrections.set(x, a);
        return a;
      },
      weight: function (x, a) {
        return (a.length !== 1 || a[0] !== x ? w.corretta : 1) * (reading.frameWords.has(x) ? w.parola_cornice : 1);
      }
    };
    // query.py Engine._evaluate: the cited rules' units come first, their documents admitted, their scores added.
    function evaluate(cl) {
      var f = Y.evaluate(cl, build);
      cited.units.forEach(function (u) { u.scores.forEach(function (s, doc) { f.admitted.set(doc, (f.admitted.get(doc) || 0) + s); }); });
      f.positives = cited.units.concat(f.positives);
      return f;
    }
    var found = evaluate(clauses), loose = Y.relaxed(clauses);
    if (!found.admitted.size && !Y.same(loose, clauses)) {  // nothing strictly: the same words, loosely
      found = evaluate(loose);
      if (found.admitted.size) {
        notes.push("Nessuna regola corrisponde esattamente (frasi tra virgolette, parole richieste): risultati con le stesse parole, senza vincoli.");
      }
    }
    var suggested = typedWords.map(function (x) {
      var a = corrections.get(x);
      return a && O.correct(ix, x)[0] === a[0] ? a[0] : x;
    });
    var changed = suggested.some(function (x, i) { return x !== typedWords[i]; });
    var out = { rules: [], suggestion: changed ? suggested.join(" ") : null, notes: notes, quick: null,
      nearestOf: cited.missing && cited.missing.length && !cited.units.length ? cited.missing[0] : null };
    var admitted = found.admitted, us = found.positives, allowed = allowedBy(ix, opts);
    if (allowed) admitted.forEach(function (s, doc) { if (!allowed(doc)) admitted.delete(doc); });
    if (!admitted.size && !cards.rules.size) return out;
    var shares = us.map(function (u) { return u.weight * rarity(ix, u); });
    var total = shares.reduce(function (a, x) { return a + x; }, 0) || 1;
    var named = ix.nomi[typedWords.join(" ")] || null, namedSet = new Set(named || []);
    var headwords = headwordRules(ix, us), boost = named ? new Map() : headwords;
    var best = new Map();
    admitted.forEach(function (s, doc) {
      if (us.length > 1) {
        var c = 0;
        us.forEach(function (u, k) { if (u.scores.get(doc) > 0) c += shares[k]; });
        c = Math.min(c / total, 1);
        s *= 0.15 + 0.85 * c * c;
      }
      if (doc % 2 === 0) s *= w.italiano;
      if (ix.soloNome.has(doc) && !namedSet.has(doc)) s *= w.solo_nome;
      var pos = doc >> 1;
      if (boost.has(pos)) s *= 1 + w.rubrica * boost.get(pos);
      if (!best.has(pos) || best.get(pos) < s) best.set(pos, s);
    });
    var top = 0;
    best.forEach(function (s) { top = Math.max(top, s); });
    // query.py _with_candidates: the question's rules added as a share of the words' best score (where a
    // filter allows one of their documents).
    var added = candidates(ix, reading, typedWords.map(function (x) { return stem(ix, x, "it"); }), cards, isFull(typedWords, q));
    var kept = allowed ? new Set(documents(ix, opts.regole).filter(allowed).map(function (doc) { return doc >> 1; })) : null;
    added.forEach(function (a, pos) { if (!kept || kept.has(pos)) best.set(pos, (best.get(pos) || 0) + a * (top || 1)); });
    out.rules = Array.from(best.entries()).sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; })
      .map(function (e) { return ix.regole[e[0]]; });
    // Weak answers to a corrected query: the server suggests the words as corrected (or as typed).
    if (out.rules.length && out.suggestion === null && top < 0.5 && corrections.size) out.suggestion = suggested.join(" ");
    // answers.py answer_for: a full question (without the cards' names) whose frame is read gets the rule that
    // answers its frame, with the sentence about its subject (its words but the frame's); otherwise the first
    // result's analytic index entry that holds the whole query, from the rules' texts and the index's entries.
    if (root.judgeRispostaOffline) {
      var typed = { it: new Set(), en: new Set() };
      typedWords.forEach(function (x) { ["it", "en"].forEach(function (lang) { var t = stem(ix, x, lang); if (t !== null) typed[lang].add(t); }); });
      out.quick = root.judgeRispostaOffline.answerFor(ix, out.rules, reading, us, opts,
        { terms: function (x, lang) { return terms(ix, x, lang); }, stem: stemOf },
        { full: isFull(all, cards.text), typed: typed, headwords: headwords });
    }
    return out;
  }

  /* frames.py is_full_question: seven words, or five with a «?» (``ws``: the text's words). */
  function isFull(ws, text) { return ws.length >= 7 || (ws.length >= 5 && text.indexOf("?") !== -1); }

  function search(ix, query, options) { return answer(ix, query, options).rules; }

  /* The cards the query names, to show above the results: [{name, english}] (english: beside an Italian name). */
  function cardsNamed(ix, query) {
    return namedCards(prepare(ix), query).cards.map(function (c) { return { name: c.name, english: c.english }; });
  }

  root.judgeRicercaOffline = { search: search, answer: answer, cards: cardsNamed, nameKey: function (t) { return nameWords(t).join(" "); }, glossaryMatch: function (ix, ws) { return glossaryMatch(prepare(ix), ws); },
    terms: function (ix, text, lang) { return terms(prepare(ix), text, lang); } };
})(typeof self !== "undefined" ? self : this);
