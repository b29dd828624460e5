/* Rule references in a query, with no network: judge/corpus/citations.py find_citations (the keywords, bare dotted
   numbers, ranges, lists and letters continuing a rule; not versions, prices, addresses or other documents'
   sections) and judge/search/syntax.py with_rule_dots, for static/js/ricerca-offline.js, which searches the rules
   a longer query cites by number as the server does (query.py Engine._search). Python's \w and \b are Unicode:
   here [\p{L}\p{N}_]. Its \d also takes other scripts' digits, which a rule number never has: here 0-9. */
(function (root) {
  "use strict";
  var WORD = "[\\p{L}\\p{N}_]", ALNUM = "[\\p{L}\\p{N}]";
  var START = "(?<!" + ALNUM + ")", END = "(?!" + ALNUM + ")";
  var KEYWORD = new RegExp(START + "(regol[ae]|reg\\.|rules?|CR(?=\\s*\\d)|C\\.R\\.|sezion[ei]|sez\\.|sections?|capitol[oi]|cap\\." +
    "|chapters?|vedi|see|cfr\\.|cf\\.|la|alla|dalla|nella|della|sulla)(?:[.:])?(?:\\s+|(?<=CR)(?=\\d))", "giu");
  var CHAPTER_WORDS = ["sezion", "sez.", "section", "capitol", "cap.", "chapter"];
  var WEAK = ["vedi", "see", "cfr.", "cf.", "la", "alla", "dalla", "nella", "della", "sulla"];
  var RULE = "[1-9]\\d{2}(?:\\.[1-9]\\d{0,2}[a-zA-Z]{0,2})?";
  var RANGE_END = "(?:[1-9]\\d{2}\\.[1-9]\\d{0,2}[a-zA-Z]{0,2}|[1-9]\\d{0,2}[a-zA-Z]{0,2}|[a-zA-Z]{1,2})";
  var RANGE = "(?:\\s?([–—-])\\s?(" + RANGE_END + "))?";
  var ITEM = new RegExp("(" + RULE + ")" + RANGE + END + "(?!\\.\\d)", "yu");
  var CHAPTER_ITEM = new RegExp("([1-9])" + END + "(?!\\.\\d)", "yu");
  var SEPARATOR = /(?:\s*[,\/]\s*(?:(?:e|ed|and|or|o)\s+)?|\s+(?:e|ed|and|or|o|oppure|&)\s+)/iuy;
  var LETTER = new RegExp("([a-z])" + END, "yu");
  var WORD_LETTERS = "aei";
  var NOTHING_FOLLOWS = /\s*(?:[.,;:!?)\]*_]|$)/uy;
  var AFTER_LIST_ITEM = /\s*(?:[.,;:!?)\]*_\/]|$|(?:e|ed|and|or|o)\s)/iuy;
  var BARE = new RegExp(START + "(?<!\\.)([1-9]\\d{2}\\.[1-9]\\d{0,2}[a-zA-Z]{0,2})" + RANGE + END + "(?!\\.\\d)", "gu");
  var BARE_SECTION = /(?<=\()([1-9]\d{2})(?=\))/gu;
  var URL = /(?:https?:\/\/|www\.)\S+/giu;
  var B = "(?<!" + WORD + ")", B_END = "(?!" + WORD + ")";  // Python's \b before and after a word
  var NOT_A_RULE_BEFORE = new RegExp("(?:" + B + "(?:firefox|chrome|chromium|safari|edge|opera|brave|android|ios|ipados|windows|" +
    "macos|linux|ubuntu|python|versione|version|ver\\.?|v|build|release|esr|patch)\\s*|[€$£]\\s*)$", "giu");
  var NOT_A_RULE_AFTER = new RegExp("\\s*(?:€|\\$|£|" + B + "(?:euro|eur|usd|dollari|dollars|esr)" + B_END + ")", "iuy");
  var OTHER_DOCUMENT = "(?:MTR|IPG|JAR|Tournament Rules|Infraction Procedure Guide|Judging at Regular)";
  var OTHER_BEFORE = new RegExp(B + OTHER_DOCUMENT + "\\)?[\\s,:]*(?:\\(\\s*)?$", "giu");
  var OTHER_AFTER = new RegExp("\\s*(?:delle|della|dell['’]|del|of the|of|in the|nelle|nella|nel)\\s*" + OTHER_DOCUMENT, "iuy");
  var MAX_EXPANSION = 60;
  var LETTERS = "abcdefghijkmnpqrstuvwxyz";  // judge/corpus/numbers.py SUBRULE_LETTERS: no «l», no «o»
  var CANONICAL = /^([1-9]\d{2})(?:\.(\d+)([a-z]{1,2})?)?$/;
  // judge/search/syntax.py: «704,5a» (the Italian decimal comma) and «704.5 a» name rule 704.5a.
  var DECIMAL_COMMA = new RegExp("(?<![\\d.,])([1-9]\\d{2}),(\\d{1,3}[a-zA-Z]{0,2})(?![\\p{L}\\p{N}_,])", "gu");
  var SPACED_LETTER = /^(\D*?[1-9]\d{2}\.\d{1,3})\s+([a-zA-Z]{1,2})\.?$/u;

  /* A sticky (``y``) pattern matched at ``pos`` (Python's pattern.match(text, pos)), or null. */
  function at(re, text, pos) { re.lastIndex = pos; return re.exec(text); }

  /* Python's pattern.search(text, from, to) for a pattern ending with $: a match ending at ``to``. */
  function endsAt(re, text, from, to) { re.lastIndex = Math.max(0, from); return re.exec(text.slice(0, to)) !== null; }

  /* numbers.py letters_index: a=1 … z=24, aa=25 …; -1 for letters the rules never use. */
  function lettersIndex(letters) {
    var value = 0;
    for (var i = 0; i < letters.length; i++) {
      var p = LETTERS.indexOf(letters[i]);
      if (p < 0) return -1;
      value = value * LETTERS.length + p + 1;
    }
    return value;
  }

  function lettersAt(index) {
    var out = "";
    while (index > 0) { var rem = (index - 1) % LETTERS.length; index = (index - 1 - rem) / LETTERS.length; out = LETTERS[rem] + out; }
    return out;
  }

  /* numbers.py RuleNumber.parse: {section, rule (null for a section), letters}, or null. */
  function parse(text) {
    var m = CANONICAL.exec(text.endsWith(".") ? text.slice(0, -1) : text);
    return m ? { section: +m[1], rule: m[2] === undefined ? null : +m[2], letters: m[3] || "" } : null;
  }

  /* numbers.py sort_key, as model.py Corpus.nearest places what was typed: [key, after], or null for no rule
     number. A letter the rules skip («704.5o», riferimenti: nessuno) counts as the letter before it, and the
     number goes after that one (``after``). */
  function sortKey(text) {
    if (/^[1-9]$/.test(text)) return [[+text, -1, -1, 0, 0], false];
    var n = parse(text), after = false, idx = 0;
    if (!n) return null;
    for (var i = 0; i < n.letters.length; i++) {
      var p = LETTERS.indexOf(n.letters[i]);
      if (p < 0) { after = true; p = LETTERS.indexOf(String.fromCharCode(n.letters.charCodeAt(i) - 1)); }  // «l» → «k»
      idx = idx * LETTERS.length + p + 1;
    }
    return [[Math.floor(n.section / 100), n.section, n.rule === null ? -1 : n.rule, n.letters.length, idx], after];
  }

  function str(n) { return n.rule === null ? String(n.section) : n.section + "." + n.rule + n.letters; }

  function range(lo, hi, f) { var out = []; for (var i = lo; i <= hi; i++) out.push(f(i)); return out; }

  function letters(start, end) {
    var lo = lettersIndex(start.letters), hi = lettersIndex(end);
    if (lo < 0 || hi < 0 || !(lo <= hi && hi <= lo + MAX_EXPANSION)) return [str(start)];
    return range(lo, hi, function (i) { return start.section + "." + start.rule + lettersAt(i); });
  }

  /* citations.py _expand: the numbers a cited number or range names. */
  function expand(num, end) {
    var start = parse(num.toLowerCase());
    if (start === null) return [];
    if (!end) return [str(start)];
    end = end.toLowerCase();
    if (/^[a-z]{1,2}$/.test(end) && start.letters) return letters(start, end);
    if (/^\d+$/.test(end) && start.rule !== null && !start.letters) {
      var hi = parseInt(end, 10);
      if (start.rule <= hi && hi <= start.rule + MAX_EXPANSION) return range(start.rule, hi, function (r) { return start.section + "." + r; });
      return [str(start)];
    }
    var stop = parse(end);
    if (stop === null) return [str(start)];
    if (stop.section === start.section && start.rule !== null && stop.rule === start.rule && start.letters && stop.letters) {
      return letters(start, stop.letters);
    }
    if (stop.section === start.section && start.rule !== null && stop.rule !== null && !start.letters && !stop.letters &&
        start.rule <= stop.rule && stop.rule <= start.rule + MAX_EXPANSION) {
      return range(start.rule, stop.rule, function (r) { return start.section + "." + r; });
    }
    return [str(start), str(stop)];
  }

  function cite(start, end, numbers, keyword) { return { start: start, end: end, numbers: numbers, keyword: keyword || null }; }

  /* citations.py _item_at: a number, range, chapter (after a chapter's keyword) or a letter continuing the rule
     before (``previous``) at ``pos``. */
  function itemAt(text, pos, chapterOk, previous) {
    var m = at(ITEM, text, pos);
    if (m) {
      var numbers = expand(m[1], m[3]);
      return numbers.length ? cite(m.index, m.index + m[0].length, numbers) : null;
    }
    if (chapterOk) {
      m = at(CHAPTER_ITEM, text, pos);
      if (m && (previous === null || at(AFTER_LIST_ITEM, text, m.index + m[0].length))) return cite(m.index, m.index + m[0].length, [m[1]]);
    }
    if (previous !== null && previous.numbers[previous.numbers.length - 1].indexOf(".") !== -1) {
      var prev = parse(previous.numbers[previous.numbers.length - 1]);
      m = at(LETTER, text, pos);
      var last = prev.letters.slice(-1);
      if (m && prev.letters && m[1] !== "l" && m[1] !== "o" && last !== "l" && last !== "o") {
        var later = lettersIndex(m[1]) > lettersIndex(last);
        var word = WORD_LETTERS.indexOf(m[1]) !== -1 && !at(NOTHING_FOLLOWS, text, m.index + 1);
        if (later && prev.letters.length === 1 && !word) return cite(m.index, m.index + 1, [prev.section + "." + prev.rule + m[1]]);
      }
    }
    return null;
  }

  function overlaps(spans, start, end) { return spans.some(function (s) { return s[0] < end && s[1] > start; }); }

  /* citations.py find_citations (every number bare or not, none asked about): [{start, end, numbers, keyword}],
     in order, without overlaps. */
  function findCitations(text) {
    var urls = [], m;
    if (text.indexOf("://") !== -1 || text.toLowerCase().indexOf("ww.") !== -1) {
      URL.lastIndex = 0;
      while ((m = URL.exec(text)) !== null) urls.push([m.index, m.index + m[0].length]);
    }
    function inUrl(pos) { return overlaps(urls, pos, pos + 1); }
    var found = [], takenUntil = -1;
    KEYWORD.lastIndex = 0;
    while ((m = KEYWORD.exec(text)) !== null) {
      if (m.index < takenUntil || inUrl(m.index)) continue;
      var lower = m[1].toLowerCase(), weak = WEAK.indexOf(lower) !== -1;
      var chapterOk = CHAPTER_WORDS.some(function (w) { return lower.startsWith(w); });
      var item = itemAt(text, m.index + m[0].length, chapterOk, null);
      if (item === null || (chapterOk && otherDocument(text, m.index, item.end))) continue;
      item.keyword = weak ? null : m[1];
      var items = [item], pos = item.end;
      for (;;) {
        var sep = at(SEPARATOR, text, pos), next = sep ? itemAt(text, sep.index + sep[0].length, chapterOk, items[items.length - 1]) : null;
        if (next === null) break;
        items.push(next);
        pos = next.end;
      }
      found = found.concat(items);
      takenUntil = pos;
    }
    return addBare(text, found, inUrl);
  }

  function otherDocument(text, start, end) {
    return endsAt(OTHER_BEFORE, text, start - 40, start) || at(OTHER_AFTER, text, end) !== null;
  }

  function notARule(text, start, end) {
    return endsAt(NOT_A_RULE_BEFORE, text, start - 20, start) || at(NOT_A_RULE_AFTER, text, end) !== null;
  }

  /* citations.py _add_bare: the dotted numbers no keyword introduced (with the letters that continue them) and a
     section alone in parentheses. */
  function addBare(text, found, inUrl) {
    var keyworded = found.map(function (c) { return [c.start, c.end]; }), bare = [], extra = [], m;
    function free(start, end) { return !(inUrl(start) || overlaps(keyworded, start, end) || overlaps(bare, start, end)); }
    BARE.lastIndex = 0;
    while ((m = BARE.exec(text)) !== null) {
      var start = m.index, end = start + m[0].length;
      if (!free(start, end) || notARule(text, start, end)) continue;
      var numbers = expand(m[1], m[3]);
      if (!numbers.length) continue;
      extra.push(cite(start, end, numbers));
      var pos = end, sep, next;
      while ((sep = at(SEPARATOR, text, pos)) && (next = letterAfter(text, sep.index + sep[0].length, extra[extra.length - 1]))) {
        extra.push(next);
        pos = next.end;
      }
      bare.push([start, pos]);
    }
    BARE_SECTION.lastIndex = 0;
    while ((m = BARE_SECTION.exec(text)) !== null) {
      if (free(m.index, m.index + m[0].length)) extra.push(cite(m.index, m.index + m[0].length, [m[1]]));
    }
    return found.concat(extra).sort(function (a, b) { return a.start - b.start; });
  }

  /* A bare letter continuing a bare rule («704.5a/b», «704.5a e b»), never another number. */
  function letterAfter(text, pos, previous) {
    return at(ITEM, text, pos) ? null : itemAt(text, pos, false, previous);
  }

  /* syntax.py with_rule_dots: «704,5a» -> «704.5a»; a query that is only «704.5 a» (or «regola 704.5 a») -> «704.5a». */
  function withRuleDots(q) {
    q = q.replace(DECIMAL_COMMA, "$1.$2");
    var m = SPACED_LETTER.exec(q);
    return m ? m[1] + m[2] : q;
  }

  root.judgeCitazioni = { findCitations: findCitations, withRuleDots: withRuleDots, sortKey: sortKey };
})(typeof self !== "undefined" ? self : this);
