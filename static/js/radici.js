/* The search's Italian analysis, in the browser, for the offline search: the same words, the same
   folded accents, the same stop words (from the offline index) and the same Italian stems as the
   server (judge/search/analysis.py: Whoosh's Snowball Italian stemmer, then the -zione noun cut
   back to its verb's root). A browser test checks it gives the server's terms on the rules' text. */
(function (root) {
  "use strict";

  // judge/search/analysis.py WORD_PATTERN: Magic notation first, then letters and digits.
  var WORD = /\{(?:[A-Za-z0-9]{1,2}(?:\/[A-Za-z0-9]{1,2})?|CHAOS|chaos)\}|[+\-]?(?:\d{1,3}|[xX*])\/[+\-]?(?:\d{1,3}|[xX*])(?![\p{L}\p{N}\p{M}_\/])|[\p{L}\p{N}\p{M}]+/gu;

  function fold(text) {
    return text.toLowerCase().normalize("NFKD").replace(/\p{M}/gu, "");
  }

  function matches(text) {
    var out = [], m;
    WORD.lastIndex = 0;
    while ((m = WORD.exec(text)) !== null) out.push(m[0]);
    return out;
  }

  /* Surface words, folded (what the server's words() gives: fold, then split). */
  function words(text) { return matches(fold(text)); }

  /* The words as written, each [word, start, end] in ``text`` (where a card's name is: judge/cards/mentions.py). */
  function spans(text) {
    var out = [], m;
    WORD.lastIndex = 0;
    while ((m = WORD.exec(text)) !== null) out.push([m[0], m.index, m.index + m[0].length]);
    return out;
  }

  /* The analyzers' tokens: split the text as written, then fold each («Unfinity™» is «unfinity»). */
  function tokens(text) { return matches(text).map(fold); }

  // --- Snowball Italian (whoosh.lang.snowball.italian), on folded words --------------------------------
  var VOWELS = "aeiouàèìòù";
  var STEP0 = ["gliela", "gliele", "glieli", "glielo", "gliene", "sene", "mela", "mele", "meli", "melo", "mene",
    "tela", "tele", "teli", "telo", "tene", "cela", "cele", "celi", "celo", "cene", "vela", "vele", "veli", "velo",
    "vene", "gli", "ci", "la", "le", "li", "lo", "mi", "ne", "si", "ti", "vi"];
  var STEP1 = ["atrice", "atrici", "azione", "azioni", "uzione", "uzioni", "usione", "usioni", "amento", "amenti",
    "imento", "imenti", "amente", "abile", "abili", "ibile", "ibili", "mente", "atore", "atori", "logia", "logie",
    "anza", "anze", "iche", "ichi", "ismo", "ismi", "ista", "iste", "isti", "istà", "istè", "istì", "ante", "anti",
    "enza", "enze", "ico", "ici", "ica", "ice", "oso", "osi", "osa", "ose", "ità", "ivo", "ivi", "iva", "ive"];
  var STEP2 = ["erebbero", "irebbero", "assero", "assimo", "eranno", "erebbe", "eremmo", "ereste", "eresti",
    "essero", "iranno", "irebbe", "iremmo", "ireste", "iresti", "iscano", "iscono", "issero", "arono", "avamo",
    "avano", "avate", "eremo", "erete", "erono", "evamo", "evano", "evate", "iremo", "irete", "irono", "ivamo",
    "ivano", "ivate", "ammo", "ando", "asse", "assi", "emmo", "enda", "ende", "endi", "endo", "erai", "erei",
    "Yamo", "iamo", "immo", "irai", "irei", "isca", "isce", "isci", "isco", "ano", "are", "ata", "ate", "ati",
    "ato", "ava", "avi", "avo", "erà", "ere", "erò", "ete", "eva", "evi", "evo", "irà", "ire", "irò", "ita",
    "ite", "iti", "ito", "iva", "ivi", "ivo", "ono", "uta", "ute", "uti", "uto", "ar", "ir"];

  function isVowel(c) { return c !== "" && VOWELS.indexOf(c) !== -1; }
  function ends(s, suffix) { return s.length >= suffix.length && s.slice(s.length - suffix.length) === suffix; }
  function cut(s, n) { return n > 0 ? s.slice(0, Math.max(0, s.length - n)) : s; }
  // Python's s[-a:-b] for the step 0 checks.
  function pySlice(s, start, end) {
    var n = s.length;
    var a = start < 0 ? Math.max(0, n + start) : Math.min(start, n);
    var b = end < 0 ? Math.max(0, n + end) : Math.min(end, n);
    return b > a ? s.slice(a, b) : "";
  }

  function r1r2(word) {
    var r1 = "", r2 = "", i;
    for (i = 1; i < word.length; i++) {
      if (!isVowel(word[i]) && isVowel(word[i - 1])) { r1 = word.slice(i + 1); break; }
    }
    for (i = 1; i < r1.length; i++) {
      if (!isVowel(r1[i]) && isVowel(r1[i - 1])) { r2 = r1.slice(i + 1); break; }
    }
    return [r1, r2];
  }

  function rvOf(word) {
    var rv = "", i;
    if (word.length >= 2) {
      if (!isVowel(word[1])) {
        for (i = 2; i < word.length; i++) { if (isVowel(word[i])) { rv = word.slice(i + 1); break; } }
      } else if (isVowel(word[0]) && isVowel(word[1])) {
        for (i = 2; i < word.length; i++) { if (!isVowel(word[i])) { rv = word.slice(i + 1); break; } }
      } else {
        rv = word.slice(3);
      }
    }
    return rv;
  }

  function setAt(word, i, ch) { return word.slice(0, i) + ch + word.slice(i + 1); }

  function stemItalian(input) {
    var word = input.toLowerCase(), i, k, suffix, step1 = false;
    word = word.replace(/á/g, "à").replace(/é/g, "è").replace(/í/g, "ì").replace(/ó/g, "ò").replace(/ú/g, "ù");
    for (i = 1; i < word.length; i++) { if (word[i - 1] === "q" && word[i] === "u") word = setAt(word, i, "U"); }
    for (i = 1; i < word.length - 1; i++) {
      if (isVowel(word[i - 1]) && isVowel(word[i + 1])) {
        if (word[i] === "u") word = setAt(word, i, "U");
        else if (word[i] === "i") word = setAt(word, i, "I");
      }
    }
    var rr = r1r2(word), r1 = rr[0], r2 = rr[1], rv = rvOf(word);

    for (k = 0; k < STEP0.length; k++) {
      suffix = STEP0[k];
      if (ends(rv, suffix)) {
        var L = suffix.length;
        var before4 = pySlice(rv, -L - 4, -L), before2 = pySlice(rv, -L - 2, -L);
        if (before4 === "ando" || before4 === "endo") {
          word = cut(word, L); r1 = cut(r1, L); r2 = cut(r2, L); rv = cut(rv, L);
        } else if (before2 === "ar" || before2 === "er" || before2 === "ir") {
          word = cut(word, L) + "e"; r1 = cut(r1, L) + "e"; r2 = cut(r2, L) + "e"; rv = cut(rv, L) + "e";
        }
        break;
      }
    }

    for (k = 0; k < STEP1.length; k++) {
      suffix = STEP1[k];
      if (!ends(word, suffix)) continue;
      if (suffix === "amente" && ends(r1, suffix)) {
        step1 = true;
        word = cut(word, 6); r2 = cut(r2, 6); rv = cut(rv, 6);
        if (ends(r2, "iv")) {
          word = cut(word, 2); r2 = cut(r2, 2); rv = cut(rv, 2);
          if (ends(r2, "at")) { word = cut(word, 2); rv = cut(rv, 2); }
        } else if (ends(r2, "os") || ends(r2, "ic")) {
          word = cut(word, 2); rv = cut(rv, 2);
        } else if (ends(r2, "abil")) {
          word = cut(word, 4); rv = cut(rv, 4);
        }
      } else if ((suffix === "amento" || suffix === "amenti" || suffix === "imento" || suffix === "imenti") && ends(rv, suffix)) {
        step1 = true;
        word = cut(word, 6); rv = cut(rv, 6);
      } else if (ends(r2, suffix)) {
        step1 = true;
        if (suffix === "azione" || suffix === "azioni" || suffix === "atore" || suffix === "atori") {
          word = cut(word, suffix.length); r2 = cut(r2, suffix.length); rv = cut(rv, suffix.length);
          if (ends(r2, "ic")) { word = cut(word, 2); rv = cut(rv, 2); }
        } else if (suffix === "logia" || suffix === "logie") {
          word = cut(word, 2); rv = cut(word, 2);
        } else if (suffix === "uzione" || suffix === "uzioni" || suffix === "usione" || suffix === "usioni") {
          word = cut(word, 5); rv = cut(rv, 5);
        } else if (suffix === "enza" || suffix === "enze") {
          word = cut(word, 2) + "te"; rv = cut(rv, 2) + "te";
        } else if (suffix === "ità") {
          word = cut(word, 3); r2 = cut(r2, 3); rv = cut(rv, 3);
          if (ends(r2, "ic") || ends(r2, "iv")) { word = cut(word, 2); rv = cut(rv, 2); }
          else if (ends(r2, "abil")) { word = cut(word, 4); rv = cut(rv, 4); }
        } else if (suffix === "ivo" || suffix === "ivi" || suffix === "iva" || suffix === "ive") {
          word = cut(word, 3); r2 = cut(r2, 3); rv = cut(rv, 3);
          if (ends(r2, "at")) {
            word = cut(word, 2); r2 = cut(r2, 2); rv = cut(rv, 2);
            if (ends(r2, "ic")) { word = cut(word, 2); rv = cut(rv, 2); }
          }
        } else {
          word = cut(word, suffix.length); rv = cut(rv, suffix.length);
        }
      }
      break;
    }

    if (!step1) {
      for (k = 0; k < STEP2.length; k++) {
        suffix = STEP2[k];
        if (ends(rv, suffix)) { word = cut(word, suffix.length); rv = cut(rv, suffix.length); break; }
      }
    }

    if (/[aeioàèìò]$/.test(rv)) {
      word = cut(word, 1); rv = cut(rv, 1);
      if (ends(rv, "i")) { word = cut(word, 1); rv = cut(rv, 1); }
    }
    if (ends(rv, "ch") || ends(rv, "gh")) word = cut(word, 1);
    return word.replace(/I/g, "i").replace(/U/g, "u");
  }

  // --- Snowball English (whoosh.lang.snowball.english, as Whoosh writes it: its R1/R2 quirks included) ----------
  var EN_VOWELS = "aeiouy";
  var EN_SPECIAL = { skis: "ski", skies: "sky", dying: "die", lying: "lie", tying: "tie", idly: "idl", gently: "gentl",
    ugly: "ugli", early: "earli", only: "onli", singly: "singl", sky: "sky", news: "news", howe: "howe", atlas: "atlas",
    cosmos: "cosmos", bias: "bias", andes: "andes", inning: "inning", innings: "inning", outing: "outing",
    outings: "outing", canning: "canning", cannings: "canning", herring: "herring", herrings: "herring",
    earring: "earring", earrings: "earring", proceed: "proceed", proceeds: "proceed", proceeded: "proceed",
    proceeding: "proceed", exceed: "exceed", exceeds: "exceed", exceeded: "exceed", exceeding: "exceed",
    succeed: "succeed", succeeds: "succeed", succeeded: "succeed", succeeding: "succeed" };
  var EN_STEP1A = ["sses", "ied", "ies", "us", "ss", "s"];
  var EN_STEP1B = ["eedly", "ingly", "edly", "eed", "ing", "ed"];
  var EN_STEP2 = ["ization", "ational", "fulness", "ousness", "iveness", "tional", "biliti", "lessli", "entli", "ation",
    "alism", "aliti", "ousli", "iviti", "fulli", "enci", "anci", "abli", "izer", "ator", "alli", "bli", "ogi", "li"];
  var EN_STEP3 = ["ational", "tional", "alize", "icate", "iciti", "ative", "ical", "ness", "ful"];
  var EN_STEP4 = ["ement", "ance", "ence", "able", "ible", "ment", "ant", "ent", "ism", "ate", "iti", "ous", "ive",
    "ize", "ion", "al", "er", "ic"];
  // Step 2's and 3's replacements: suffix -> [replacement, R2 when shorter than the suffix].
  var EN_STEP2_TO = { izer: ["ize", ""], ization: ["ize", ""],
    ational: ["ate", "e"], ation: ["ate", "e"], ator: ["ate", "e"], alism: ["al", ""], aliti: ["al", ""], alli: ["al", ""],
    ousli: ["ous", ""], ousness: ["ous", ""], iveness: ["ive", "e"], iviti: ["ive", "e"], biliti: ["ble", ""], bli: ["ble", ""] };
  var EN_STEP3_TO = { ational: "ate", icate: "ic", iciti: "ic", ical: "ic" };

  function isEnVowel(c) { return c !== undefined && c !== "" && EN_VOWELS.indexOf(c) !== -1; }
  function at(s, i) { return i < 0 ? s[s.length + i] : s[i]; }  // Python's s[i] (never out of range here)

  /* whoosh.lang.snowball.english.EnglishStemmer.stem, on a lowercase word. */
  function stemEnglish(input) {
    var word = input.toLowerCase(), i;
    if (Object.prototype.hasOwnProperty.call(EN_SPECIAL, word)) return EN_SPECIAL[word];
    word = word.replace(/[\u2019\u2018\u201B]/g, "'");
    if (word[0] === "'") word = word.slice(1);
    if (word[0] === "y") word = "Y" + word.slice(1);
    for (i = 1; i < word.length; i++) if (isEnVowel(word[i - 1]) && word[i] === "y") word = setAt(word, i, "Y");
    var r1 = "", r2 = "";
    if (/^(gener|commun|arsen)/.test(word)) {
      r1 = word.slice(/^commun/.test(word) ? 6 : 5);
      for (i = 1; i < r1.length; i++) if (!isEnVowel(r1[i]) && isEnVowel(r1[i - 1])) { r2 = r1.slice(i + 1); break; }
    } else {
      for (i = 1; i < word.length; i++) if (!isEnVowel(word[i]) && isEnVowel(word[i - 1])) { r1 = word.slice(i + 1); break; }
      for (i = 1; i < r1.length; i++) if (!isEnVowel(r1[i]) && isEnVowel(r1[i - 1])) { r2 = r1.slice(i + 1); break; }
    }
    function drop(n) { word = cut(word, n); r1 = cut(r1, n); r2 = cut(r2, n); }
    function swap(n, to, r2Short) {  // the last n letters become ``to`` (R1, R2 emptied, or r2Short, when shorter)
      word = cut(word, n) + to;
      r1 = r1.length >= n ? cut(r1, n) + to : "";
      r2 = r2.length >= n ? cut(r2, n) + to : (r2Short || "");
    }
    function first(list) { for (var k = 0; k < list.length; k++) if (ends(word, list[k])) return list[k]; return null; }
    var suffix = first(["'s'", "'s", "'"]);
    if (suffix) drop(suffix.length);
    suffix = first(EN_STEP1A);
    if (suffix === "sses") drop(2);
    else if (suffix === "ied" || suffix === "ies") drop(cut(word, suffix.length).length > 1 ? 2 : 1);
    else if (suffix === "s" && Array.from(cut(word, 2)).some(isEnVowel)) drop(1);
    suffix = first(EN_STEP1B);
    if (suffix === "eed" || suffix === "eedly") {
      if (ends(r1, suffix)) swap(suffix.length, "ee");
    } else if (suffix && Array.from(cut(word, suffix.length)).some(isEnVowel)) {
      drop(suffix.length);
      if (ends(word, "at") || ends(word, "bl") || ends(word, "iz")) {
        word += "e";
        r1 += "e";
        if (word.length > 5 || r1.length >= 3) r2 += "e";
      } else if (/(bb|dd|ff|gg|mm|nn|pp|rr|tt)$/.test(word)) {
        drop(1);
      } else if ((r1 === "" && word.length >= 3 && !isEnVowel(at(word, -1)) && "wxY".indexOf(at(word, -1)) === -1 &&
                  isEnVowel(at(word, -2)) && !isEnVowel(at(word, -3))) ||
                 (r1 === "" && word.length === 2 && isEnVowel(word[0]) && !isEnVowel(word[1]))) {
        word += "e";
        if (r1.length > 0) r1 += "e";
        if (r2.length > 0) r2 += "e";
      }
    }
    if (word.length > 2 && (at(word, -1) === "y" || at(word, -1) === "Y") && !isEnVowel(at(word, -2))) swap(1, "i");
    suffix = first(EN_STEP2);
    if (suffix && ends(r1, suffix)) {
      if (suffix === "tional" || suffix === "entli" || suffix === "fulli" || suffix === "lessli") drop(2);
      else if (suffix === "enci" || suffix === "anci" || suffix === "abli") swap(1, "e");
      else if (Object.prototype.hasOwnProperty.call(EN_STEP2_TO, suffix)) swap(suffix.length, EN_STEP2_TO[suffix][0], EN_STEP2_TO[suffix][1]);
      else if (suffix === "fulness") drop(4);
      else if (suffix === "ogi" && at(word, -4) === "l") drop(1);
      else if (suffix === "li" && "cdeghkmnrt".indexOf(at(word, -3)) !== -1) drop(2);
    }
    suffix = first(EN_STEP3);
    if (suffix && ends(r1, suffix)) {
      if (suffix === "tional") drop(2);
      else if (Object.prototype.hasOwnProperty.call(EN_STEP3_TO, suffix)) swap(suffix.length, EN_STEP3_TO[suffix]);
      else if (suffix === "alize") drop(3);
      else if (suffix === "ful" || suffix === "ness") drop(suffix.length);
      else if (suffix === "ative" && ends(r2, suffix)) drop(5);
    }
    suffix = first(EN_STEP4);
    if (suffix && ends(r2, suffix)) {
      if (suffix !== "ion") drop(suffix.length);
      else if (at(word, -4) === "s" || at(word, -4) === "t") drop(3);
    }
    if (ends(r2, "l") && at(word, -2) === "l") word = cut(word, 1);
    else if (ends(r2, "e")) word = cut(word, 1);
    else if (ends(r1, "e") && word.length >= 4 && (isEnVowel(at(word, -2)) || "wxY".indexOf(at(word, -2)) !== -1 ||
             !isEnVowel(at(word, -3)) || isEnVowel(at(word, -4)))) word = cut(word, 1);
    return word.replace(/Y/g, "y");
  }

  // judge/search/analysis.py NounToVerbFilter: "dichiarazion" -> "dichiar", "prevenzion" -> "preven".
  var NOUNS = ["azion", "izion", "nzion"];
  function nounToVerb(t) {
    for (var k = 0; k < NOUNS.length; k++) {
      if (ends(t, NOUNS[k])) {
        var n = NOUNS[k] === "nzion" ? NOUNS[k].length - 1 : NOUNS[k].length;
        return t.length - n >= 4 ? t.slice(0, t.length - n) : t;
      }
    }
    return t;
  }

  /* A stemmer with its answers kept (the server's stemmers keep theirs: analysis.py STEMS_KEPT): the rules'
     texts, analysed for a phrase in quotes (frasi.js), repeat the same ten thousand words. */
  var KEPT = 16384;
  function kept(stemmer) {
    var known = new Map();
    return function (w) {
      var s = known.get(w);
      if (s === undefined) {
        if (known.size >= KEPT) known.clear();
        s = stemmer(w);
        known.set(w, s);
      }
      return s;
    };
  }
  var italianStem = kept(function (w) { return nounToVerb(stemItalian(w)); }), englishStem = kept(stemEnglish);

  /* The Italian terms of a text, as the server indexes them (stops: the offline index's list). */
  function italianTerms(text, stops) {
    var out = [];
    tokens(text).forEach(function (w) {
      if (stops && stops.has(w)) return;
      out.push(italianStem(w));
    });
    return out;
  }

  root.judgeRadici = { fold: fold, words: words, spans: spans, tokens: tokens, stemItalian: stemItalian, stemEnglish: englishStem,
    italianTerms: italianTerms };
})(typeof self !== "undefined" ? self : this);
