/* The offline copy's pages: with no network, the service worker answers a rule page, a search or a
   glossary search it has not kept with templates/offline_regola.html, offline_cerca.html or
   offline_glossario.html, and this script renders them from the edition's data files
   (judge/web/offline_data.py) as the site renders them online: the same headings, labels, notes and
   texts (templates/regola.html, capitolo.html, cerca.html, glossario.html). The search itself is
   static/js/ricerca-offline.js. */
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
    (children || []).forEach(function (c) {
      if (c === null || c === undefined || c === false) return;
      e.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return e;
  }

  function load(url) {
    return fetch(url).then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); });
  }

  function ruleUrl(n) { return "/regole/" + n; }

  /* Text with the rule numbers it cites linked (only numbers of the edition). */
  function linked(text, known) {
    var frag = document.createDocumentFragment(), last = 0, m;
    CITATION.lastIndex = 0;
    while ((m = CITATION.exec(text)) !== null) {
      var number = m[2], start = m.index + m[1].length;
      if (!known.has(number)) continue;
      frag.appendChild(document.createTextNode(text.slice(last, start)));
      frag.appendChild(el("a", { href: ruleUrl(number), class: "cit", text: number }));
      last = start + number.length;
    }
    frag.appendChild(document.createTextNode(text.slice(last)));
    return frag;
  }

  // --- rules: the texts and their labels, as templates/_macros.html writes them --------------------------
  function badge(data, t, extra, withTitle) {
    var attrs = { class: "strato " + (LAYER_CLASS[t[3]] || "strato-ufficiale") + (extra ? " " + extra : ""), text: data.etichette[t[2]] };
    if (withTitle !== false && data.versioni[t[2]]) attrs.title = data.versioni[t[2]];
    return el("span", attrs);
  }

  function layerBadge(layer, text) { return el("span", { class: "strato " + LAYER_CLASS[layer], text: text }); }

  function versionLabel(data, t) {
    var note = null;
    if (t[3] === "traduzione") note = "non ufficiale: prevale l'inglese";
    else if (t[3] === "ufficiale") note = "fa fede" + (data.edizione.verificata ? "" : " · testo non verificato rispetto al file ufficiale");
    return el("p", { class: "versione" }, [badge(data, t), note ? " " : null, note ? el("span", { class: "nota-strato", text: note }) : null]);
  }

  function translationNotice(t) {
    if (t[3] !== "traduzione" || t[4]) return null;
    return el("p", { class: "nota-traduzione" }, [el("strong", { class: "da-aggiornare", text: "Traduzione da aggiornare:" }),
      " il testo inglese è cambiato dopo la traduzione (fatta sull'edizione del " + t[5] + "); leggi l'inglese in vigore."]);
  }

  function textBlock(t, lang, known) {
    var box = el("div", { class: "testo", lang: lang });
    box.appendChild(el("p", {}, [linked(t[0], known)]));
    t[1].forEach(function (ex) { box.appendChild(el("p", { class: "esempio" }, [linked(ex, known)])); });
    return box;
  }

  /* The Italian column: the text shown first, and the other Italian text under it (italian_texts). */
  function italianTexts(data, rule, known) {
    var first = rule.it, out = [versionLabel(data, first), translationNotice(first), textBlock(first, "it", known)];
    var other = rule.alt;
    if (other && first[3] === "comunità") {
      out.push(el("details", { class: "altro-strato" }, [el("summary", { text: "Traduzione del progetto" + (other[4] ? "" : " (da aggiornare)") }),
        versionLabel(data, other), translationNotice(other), textBlock(other, "it", known)]));
    } else if (other && first[3] === "traduzione") {
      out.push(el("details", { class: "altro-strato", open: "" }, [el("summary", { text: "Testo della comunità (non più allineato all'inglese in vigore)" }),
        versionLabel(data, other), textBlock(other, "it", known)]));
    }
    return out;
  }

  function bilingual(data, rule, known) {
    if (rule.it && rule.en) {
      return el("div", { class: "bilingue" }, [
        el("section", { class: "lingua lingua-it", "aria-label": "Testo italiano" }, italianTexts(data, rule, known)),
        el("section", { class: "lingua lingua-en", "aria-label": "Testo inglese" }, [versionLabel(data, rule.en), textBlock(rule.en, "en", known)])]);
    }
    var only = rule.en || rule.it, lang = rule.en ? "en" : "it";
    var frag = document.createDocumentFragment();
    frag.appendChild(el("p", { class: "banner", role: "note", text: rule.en ? data.edizione.avviso : "Questa regola non esiste nell'edizione inglese in vigore: testo italiano non più ufficiale." }));
    frag.appendChild(el("div", { class: "bilingue solo" }, [el("section", { class: "lingua lingua-" + lang, "aria-label": lang === "it" ? "Testo italiano" : "Testo inglese" },
      [versionLabel(data, only), textBlock(only, lang, known)])]));
    return frag;
  }

  /* The checks' warnings about a rule (_macros.html warning_list; the links to the changes need the network). */
  function warningList(rule, known) {
    if (!rule.w || !rule.w.length) return null;
    var ul = el("ul", { class: "avvisi", "aria-label": "Avvisi" });
    rule.w.forEach(function (w) {
      var li = el("li", { class: "avviso avviso-" + w[0] }, [el("strong", { text: "Attenzione:" }), " " + w[1]]);
      if (w[2].length) {
        li.appendChild(document.createTextNode(" Citazione nel testo inglese in vigore: "));
        w[2].forEach(function (n, i) { if (i) li.appendChild(document.createTextNode(", ")); li.appendChild(el("a", { href: ruleUrl(n), text: n })); });
        li.appendChild(document.createTextNode("."));
      }
      ul.appendChild(li);
    });
    return ul;
  }

  /* A rule in a section's or rule's list (regola.html's compact rows). */
  function compactRow(data, d, known, communitySection) {
    var li = el("li", { class: "voce livello-" + (d.n.split(".").length - 1 + (d.k === "sottoregola" ? 1 : 0)), id: "r-" + d.n });
    li.appendChild(el("h3", { class: "numero" }, [el("a", { href: ruleUrl(d.n), text: d.n })]));
    if (d.it && d.en) {
      var strong = d.it[3] === "traduzione" && (communitySection || !d.it[4]);
      li.appendChild(el("div", { class: "bilingue compatto" }, [
        el("div", { class: "lingua lingua-it" }, [badge(data, d.it, strong ? "etichetta-blocco" : "etichetta-blocco solo-telefono", false),
          d.it[4] ? null : " ", d.it[4] ? null : el("strong", { class: "da-aggiornare", text: "da aggiornare" }), textBlock(d.it, "it", known)]),
        el("div", { class: "lingua lingua-en" }, [badge(data, d.en, "etichetta-blocco solo-telefono", false), textBlock(d.en, "en", known)])]));
    } else if (d.en) {
      if (communitySection) li.appendChild(el("p", { class: "nota-lingua", text: "Manca la traduzione italiana: testo inglese ufficiale." }));
      li.appendChild(el("div", { class: "bilingue compatto solo" }, [el("div", { class: "lingua lingua-en" }, [badge(data, d.en, "etichetta-blocco", false), textBlock(d.en, "en", known)])]));
    } else if (d.it) {
      li.appendChild(el("p", { class: "nota-lingua", text: "Non presente nell'edizione inglese in vigore." }));
      li.appendChild(el("div", { class: "bilingue compatto solo" }, [el("div", { class: "lingua lingua-it" }, [badge(data, d.it, "etichetta-blocco", false), textBlock(d.it, "it", known)])]));
    }
    var warnings = warningList(d, known);
    if (warnings) li.appendChild(warnings);
    return li;
  }

  /* «Testo italiano: …» under a section's title (regola.html). */
  function provenance(data, rule) {
    var s = rule.s || {}, en = rule.en ? badge(data, rule.en) : "inglese ufficiale";
    if (s.c) {
      return el("p", { class: "provenienza" }, ["Testo italiano: ", layerBadge("comunità", "Testo della comunità · " + s.c[0]),
        " (fonte: " + s.c[1] + ", «Aggiornato a " + s.c[2] + "»); dove non è più allineato all'inglese in vigore, o manca, c'è la ",
        layerBadge("traduzione", "Traduzione del progetto"), ". Fa fede l'", en, "."]);
    }
    if (s.tr) return el("p", { class: "provenienza" }, ["Testo italiano: ", layerBadge("traduzione", "Traduzione del progetto"), ", non ufficiale; fa fede l'", en, "."]);
    return el("p", { class: "banner", role: "note", text: data.edizione.avviso });
  }

  function languageChoice() {
    var now = document.documentElement.getAttribute("data-lingue") || "entrambe";
    var group = el("div", { class: "scelta-lingua", role: "group", "aria-label": "Testo da mostrare", "data-scelta-lingua": "" },
      [el("span", { class: "scelta-titolo", "aria-hidden": "true", text: "Mostra" })]);
    [["it", "Italiano"], ["en", "Inglese"], ["entrambe", "Entrambi"]].forEach(function (c) {
      group.appendChild(el("button", { type: "button", "data-lingue": c[0], "aria-pressed": String(now === c[0]), text: c[1] }));
    });
    group.appendChild(el("a", { class: "scelta-legenda", href: "#legenda", text: "Legenda" }));
    return group;
  }

  function heading(rule) {
    if (rule.k === "capitolo") return el("h1", { text: rule.h });
    if (rule.k === "sezione" || rule.t.indexOf(rule.n + " ") !== 0) return el("h1", { text: rule.t });
    return el("h1", {}, [el("span", { class: "numero-titolo", text: rule.n }), rule.t.slice(rule.n.length)]);
  }

  /* Two keys of citazioni.js sortKey, in numeric order. */
  function compareKeys(a, b) {
    for (var i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
  }

  /* model.py Corpus.nearest: the rules nearest in numeric order to ``number`` (a rule of no edition). */
  function nearestRules(data, number, limit) {
    var sortKey = window.judgeCitazioni.sortKey, parsed = sortKey(number);  // static/js/citazioni.js
    if (!parsed) {
      var digits = number.replace(/[^0-9]/g, "").slice(0, 3);
      if (digits.length < 3 || digits[0] === "0") return [];
      parsed = sortKey(digits);
    }
    var rules = data.regole, lo = 0, hi = rules.length;
    while (lo < hi) {  // bisect: the first rule after (or from) the number's place
      var mid = (lo + hi) >> 1, c = compareKeys(sortKey(rules[mid].n)[0], parsed[0]);
      if (c < 0 || (c === 0 && parsed[1])) lo = mid + 1; else hi = mid;
    }
    var half = Math.floor(limit / 2), start = Math.max(0, lo - half), end = Math.min(rules.length, lo + limit - half);
    if (end - start < limit) start = Math.max(0, end - limit);
    return rules.slice(start, end);
  }

  function renderRule(data, number) {
    var byNumber = new Map(data.regole.map(function (r) { return [r.n, r]; }));
    var rule = byNumber.get(number);
    app.textContent = "";
    if (!rule) {
      app.appendChild(el("h1", { text: "Regola " + number + " non trovata" }));
      app.appendChild(el("p", { text: "La regola «" + number + "» non esiste nell'edizione del " + data.edizione.data + "." }));
      // regola_non_trovata.html: the existing rules nearest to it.
      var near = nearestRules(data, number, 7);
      if (near.length) {
        app.appendChild(el("h2", { text: "Regole esistenti più vicine" }));
        app.appendChild(el("ul", { class: "vicine" }, near.map(function (r) {
          var t = r.it || r.en, text = t ? t[0] : r.k === "capitolo" ? r.h : r.t;
          return el("li", {}, [el("a", { href: ruleUrl(r.n), text: r.n }), " " + (text.length > 100 ? text.slice(0, 97) + "..." : text)]);
        })));
      }
      return;
    }
    document.title = (rule.k === "capitolo" ? rule.h : rule.t) + " (offline) · judge";
    var crumbs = el("nav", { class: "briciole", "aria-label": "Percorso" }, [el("a", { href: "/", text: "Regolamento" })]);
    var chain = [], p = rule.p;
    while (p && byNumber.has(p)) { chain.unshift(byNumber.get(p)); p = byNumber.get(p).p; }
    chain.forEach(function (c) {
      crumbs.appendChild(document.createTextNode(" › "));
      crumbs.appendChild(el("a", { href: ruleUrl(c.n), text: c.k === "capitolo" ? "Capitolo " + c.n : c.k === "sezione" ? c.t : c.n }));
    });
    app.appendChild(crumbs);
    app.appendChild(heading(rule));
    if ((rule.k === "sezione" || rule.k === "capitolo") && rule.it && rule.en) {
      app.appendChild(el("p", { class: "sottotitolo", lang: "en", text: rule.en[0] }));
    }
    app.appendChild(el("p", { class: "avviso-offline", role: "status", text: "Senza rete: dalla copia offline dell'edizione del " + data.edizione.data + "." }));
    var children = new Map();
    data.regole.forEach(function (r) { if (r.p) { if (!children.has(r.p)) children.set(r.p, []); children.get(r.p).push(r); } });
    if (rule.k === "capitolo") { renderChapter(data, rule, children.get(rule.n) || [], children); return; }
    var list = [];
    (function walk(n) { (children.get(n) || []).forEach(function (c) { list.push(c); walk(c.n); }); })(number);
    if (rule.it && rule.en && (rule.k !== "sezione" || list.length)) app.appendChild(languageChoice());
    var section = byNumber.get(rule.k === "sezione" ? rule.n : number.split(".")[0]);
    var community = !!(section && section.s && section.s.c);
    var warnings = warningList(rule, byNumber);
    if (warnings) app.appendChild(warnings);
    app.appendChild(rule.k === "sezione" ? provenance(data, rule) : bilingual(data, rule, byNumber));
    if (!list.length) return;
    app.appendChild(rule.k === "sezione" ? el("h2", { class: "visually-hidden", text: "Regole della sezione" }) : el("h2", { text: "Sottoregole" }));
    var ol = el("ol", { class: "regole" });
    list.forEach(function (c) { ol.appendChild(compactRow(data, c, byNumber, community)); });
    app.appendChild(ol);
  }

  /* A chapter: its sections with what Italian each has (capitolo.html). */
  function renderChapter(data, rule, sections, children) {
    var ul = el("ul", { class: "sezioni lunga" });
    sections.forEach(function (s) {
      var info = s.s || {}, li = el("li", {}, [el("a", { href: ruleUrl(s.n), text: s.t })]);
      if (s.it && s.en) li.appendChild(el("span", { class: "en", lang: "en", text: s.en[0] }));
      if (info.c) li.appendChild(layerBadge("comunità", "Testo della comunità · " + info.c[0]));
      if (info.tr) li.appendChild(layerBadge("traduzione", "Traduzione del progetto"));
      else if (!info.c) li.appendChild(layerBadge("ufficiale", "solo inglese ufficiale"));
      var n = (children.get(s.n) || []).length;
      li.appendChild(el("span", { class: "conteggio", text: n + " " + (n === 1 ? "regola" : "regole") }));
      ul.appendChild(li);
    });
    app.appendChild(ul);
  }

  // --- the search -------------------------------------------------------------------------------------------
  var PER_PAGE = 10;  // judge/web/search.py
  var DOCUMENTS = { mtr: "MTR", ipg: "IPG", jar: "JAR" };  // judge/web/tournament.py DOCUMENT_FILTERS
  var KEYWORD = /^(?:regol[ae]|rules?|cr)\.?\s*/i;

  /* The search's parameters, as judge/web/search.py reads them (cerca.html's filters, its pages). */
  function searchParams(params) {
    var page = parseInt((params.get("pagina") || "").trim().slice(0, 6), 10);
    var documento = (params.get("documento") || "tutti").trim().toLowerCase();
    return { lingua: (params.get("lingua") || "tutte").trim().toLowerCase(), capitolo: (params.get("capitolo") || "").trim().slice(0, 2),
      sezione: (params.get("sezione") || "").trim().slice(0, 4), pagina: Math.max(1, Math.min(isNaN(page) ? 1 : page, 1000)),
      documento: Object.prototype.hasOwnProperty.call(DOCUMENTS, documento) || documento === "regole" ? documento : "tutti" };
  }

  /* What the page says beside the results: the filters (search.py active_filters), applied on the device, and
     what the copy cannot do that the site would (a document's filter, a rule number inside the query). */
  function searchNotes(out, opts) {
    var active = [];
    if (opts.lingua === "it" || opts.lingua === "en") active.push(opts.lingua === "it" ? "solo italiano" : "solo inglese");
    if (opts.capitolo) active.push("capitolo " + opts.capitolo);
    if (opts.sezione) active.push("sezione " + opts.sezione);
    if (active.length) out.appendChild(el("p", { class: "avviso filtri-offline", text: "Filtri attivi: " + active.join(", ") + " (applicati anche senza rete)." }));
    if (opts.documento !== "tutti" && opts.documento !== "regole") {
      out.appendChild(el("p", { class: "avviso", text: "Senza rete la ricerca nel solo " + DOCUMENTS[opts.documento] +
        " non c'è: qui sotto le regole che la ricerca trova e, sopra, le sezioni dei documenti dei tornei che nomina." }));
    }
  }

  /* Previous and next page, as cerca.html links them (the same parameters). */
  function pages(query, opts, page, count) {
    var last = Math.ceil(count / PER_PAGE);
    if (last <= 1) return null;
    function link(p, rel, text) {
      var params = new URLSearchParams({ q: query });
      if (opts.lingua === "it" || opts.lingua === "en") params.set("lingua", opts.lingua);
      if (opts.capitolo) params.set("capitolo", opts.capitolo);
      if (opts.sezione) params.set("sezione", opts.sezione);
      params.set("pagina", p);
      return el("a", { rel: rel, href: "/cerca?" + params.toString(), text: text });
    }
    return el("nav", { class: "paginazione", "aria-label": "Pagine dei risultati" }, [page > 1 ? link(page - 1, "prev", "← Precedenti") : null,
      page > 1 && page < last ? " " : null, page < last ? link(page + 1, "next", "Successivi →") : null]);
  }

  /* Text and <mark> elements from parts ([text, marked]): nothing of the rules' text, the entries or the query
     becomes markup. */
  function marked(parts) { return parts.map(function (x) { return x[1] ? el("mark", { text: x[0] }) : x[0]; }); }

  /* The quick answer (static/js/risposta-offline.js), as cerca.html shows it: the rule; what the question asks
     (an answer to its frame) or the analytic index entry (an answer from the index, with the query's words
     marked); the sentence that answers (a full question) or the rule's text, and its text's label. */
  function quickAnswer(data, a, byNumber) {
    var t = byNumber.get(a.number)[a.lang], label = el("span", { class: "strato " + (LAYER_CLASS[t[3]] || "strato-ufficiale"), text: data.etichette[t[2]] });
    return el("section", { class: "risposta-rapida", "aria-labelledby": "risposta-rapida-h" }, [
      el("h2", { id: "risposta-rapida-h" }, ["Risposta rapida: ", el("a", { href: ruleUrl(a.number), text: a.number })]),
      a.asks ? el("p", { class: "cornice", text: "La domanda chiede: " + a.asks + " La regola che risponde:" }) : null,
      a.entry ? el("p", { class: "voce-indice", title: "L'indice analitico è del progetto judge: rimanda alla regola, che fa fede" },
        ["Dall'indice analitico" + (a.entryLang === "en" ? " inglese" : "") + " — ", el("span", { lang: a.entryLang }, marked(a.entryParts))]) : null,
      a.sentence ? el("p", { class: "frase-risposta" }, [el("span", { lang: a.lang }, marked(a.parts)), " ", label])
        : el("p", {}, [el("span", { lang: a.lang, text: a.text }), " ", label])]);
  }

  function renderSearch(data, ix, query, params) {
    var out = document.getElementById("risultati-offline");
    var box = document.getElementById("q");
    if (box) box.value = query;
    out.textContent = "";
    if (!query.trim()) return;
    document.title = query + " · Cerca (offline) · judge";
    var byNumber = new Map(data.regole.map(function (r) { return [r.n, r]; }));
    var direct = RULE_PATH.exec("/" + query.trim().replace(KEYWORD, "").replace(",", "."));
    if (direct && byNumber.has(direct[1].toLowerCase())) { location.replace(ruleUrl(direct[1].toLowerCase())); return; }
    var opts = searchParams(params);
    opts.regole = data.regole;
    var answer = window.judgeRicercaOffline.answer(ix, query, opts), found = answer.rules;
    // The server's notes (a query too long, a phrase found nowhere), then what the copy says of itself.
    answer.notes.forEach(function (note) { out.appendChild(el("p", { class: "avviso", text: note })); });
    // cerca.html: a cited number of no rule, and none of a rule, lists the rules nearest to it.
    var near = answer.nearestOf ? nearestRules(data, answer.nearestOf, 5) : [];
    if (near.length) {
      var p = el("p", {}, ["Regole vicine: "]);
      near.forEach(function (r, i) { if (i) p.appendChild(document.createTextNode(", ")); p.appendChild(el("a", { href: ruleUrl(r.n), text: r.n })); });
      out.appendChild(p);
    }
    searchNotes(out, opts);
    // A word corrected as the server corrects it: cerca.html's «Forse cercavi» (text nodes: nothing typed is markup).
    if (answer.suggestion) {
      out.appendChild(el("p", { class: "forse" }, ["Forse cercavi: ",
        el("a", { href: "/cerca?q=" + encodeURIComponent(answer.suggestion), text: answer.suggestion }),
        found.length ? " " : null, found.length ? el("span", { class: "aiuto", text: "(risultati mostrati con la correzione)" }) : null]));
    }
    // The cards the question names, as cerca.html shows them (their pages need the network: the name only).
    var cards = window.judgeRicercaOffline.cards(ix, query);
    if (cards.length) {
      out.appendChild(el("section", { class: "banner carta-nominata", "aria-label": "Carte" }, cards.map(function (c) {
        return el("p", {}, ["Carta: ", el("strong", { text: c.name }), c.english ? " " : null,
          c.english ? el("span", { lang: "en", text: "(" + c.english + ")" }) : null]);
      })));
    }
    var page = Math.min(opts.pagina, Math.max(1, Math.ceil(found.length / PER_PAGE))), pageCount = Math.ceil(found.length / PER_PAGE);
    if (answer.quick && page === 1) out.appendChild(quickAnswer(data, answer.quick, byNumber));
    out.appendChild(el("p", { class: "conteggio", role: "status", text: found.length
      ? found.length + " regole trovate (senza rete)" + (pageCount > 1 ? " · pagina " + page + " di " + pageCount : "")
      : "Nessuna regola trovata per «" + query + "» nella copia offline." }));
    var ol = el("ol", { class: "risultati", id: "risultati", tabindex: "-1", start: String((page - 1) * PER_PAGE + 1) });
    found.slice((page - 1) * PER_PAGE, page * PER_PAGE).forEach(function (n) {
      var r = byNumber.get(n), t = opts.lingua === "en" ? r.en || r.it : r.it || r.en;
      var section = r.k === "regola" || r.k === "sottoregola" ? byNumber.get(n.split(".")[0]) : null;
      // A section's or chapter's title is a name, not a text with a label (cerca.html does the same).
      var kind = r.k === "sezione" ? "Sezione" : r.k === "capitolo" ? "Capitolo" : null;
      var head = el("p", { class: "intestazione" }, [el("a", { href: ruleUrl(n) }, [el("strong", { text: n })]), " ",
        section ? el("span", { class: "sezione", text: section.t }) : null, section ? " " : null,
        kind ? el("span", { class: "sezione", text: kind }) : (t ? badge(data, t) : null)]);
      var li = el("li", { class: "risultato" }, [head]);
      if (t) li.appendChild(el("p", { class: "estratto", lang: t === r.it ? "it" : "en", text: t[0].length > 240 ? t[0].slice(0, 240) + "…" : t[0] }));
      ol.appendChild(li);
    });
    out.appendChild(ol);
    var nav = pages(query, opts, page, found.length);
    if (nav) out.appendChild(nav);
  }

  // --- the glossary's search (judge/web/glossary_search.py) ---------------------------------------------------
  function rank(query, folded, term, termFolded, termStems) {
    if (!term) return null;
    if (termFolded === folded) return 0;
    var q = query, t = termStems;
    if (!q.length || !q.every(function (s) { return t.indexOf(s) !== -1; })) return null;
    if (q.join(" ") === t.join(" ")) return 0;
    return t.slice(0, q.length).join(" ") === q.join(" ") ? 1 : 2;
  }

  function searchGlossary(gl, ix, query) {
    var R = window.judgeRadici, S = window.judgeRicercaOffline;
    var q = query.split(/\s+/).filter(Boolean).join(" ").slice(0, 100), folded = R.fold(q);
    var stems = { it: S.terms(ix, q, "it"), en: S.terms(ix, q, "en") };
    if (!folded.trim() || !(stems.it.length || stems.en.length)) return [];
    var ws = R.words(q), synonyms = new Set();
    S.glossaryMatch(ix, ws).forEach(function (m) { if (m[1] - m[0] === ws.length) m[2].forEach(function (c) { synonyms.add(c); }); });
    var ranked = [];
    gl.voci.forEach(function (e) {
      var ranks = [rank(stems.it, folded, e.it_term, e.f[1], e.r[0]), rank(stems.en, folded, e.term, e.f[0], e.r[1])]
        .filter(function (x) { return x !== null; });
      if (e.c.some(function (c) { return synonyms.has(c); })) ranks.push(0);
      if (ranks.length) ranked.push([Math.min.apply(null, ranks), e.term.toLowerCase(), e]);
    });
    ranked.sort(function (a, b) { return a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0); });
    return ranked.map(function (x) { return x[2]; });
  }

  function jargonFor(gl, ix, query) {
    var out = [], S = window.judgeRicercaOffline;
    ["it", "en"].forEach(function (lang) {
      (gl.gergo[lang][S.terms(ix, query, lang).join(" ")] || []).forEach(function (j) {
        if (out.every(function (o) { return o[1] !== j[1]; })) out.push(j);
      });
    });
    return out;
  }

  function renderGlossary(gl, ix, query) {
    var out = document.getElementById("risultati-offline");
    var box = document.getElementById("q-glossario");
    if (box) box.value = query;
    out.textContent = "";
    var q = query.split(/\s+/).filter(Boolean).join(" ").slice(0, 100);
    if (!q) {
      out.appendChild(el("p", {}, ["Scrivi un termine italiano o inglese; le pagine delle lettere sono nella copia: ", el("a", { href: "/glossario", text: "tutto il glossario" }), "."]));
      return;
    }
    document.title = q + " · Glossario (offline) · judge";
    var known = new Set(ix.regole);
    jargonFor(gl, ix, q).forEach(function (j) {
      out.appendChild(el("p", { class: "avviso gergo" }, [el("strong", { text: "«" + j[0] + "»" }), " è gergo: ", linked(j[1], known), "."]));
    });
    var found = searchGlossary(gl, ix, q);
    out.appendChild(el("p", { class: "conteggio", role: "status" }, [
      found.length ? found.length + (found.length === 1 ? " voce" : " voci") + " per «" + q + "»" : "Nessuna voce per «" + q + "»", " · ",
      el("a", { href: "/glossario", text: "tutto il glossario" }), " · ",
      el("a", { href: "/cerca?q=" + encodeURIComponent(q), text: "cerca «" + q + "» nelle regole" })]));
    if (!found.length) return;
    var dl = el("dl", { class: "glossario" });
    found.forEach(function (e) {
      dl.appendChild(el("dt", { id: e.anchor }, [el("span", { lang: "en", text: e.term }), e.it_term ? " " : null,
        e.it_term ? el("span", { class: "termine-it", text: "— " + e.it_term }) : null]));
      if (e.it_text) {
        dl.appendChild(el("dd", { lang: "it" }, [linked(e.it_text, known), e.current ? null : " ",
          e.current ? null : el("strong", { class: "da-aggiornare", text: "(traduzione da aggiornare: vale l'inglese)" })]));
        dl.appendChild(el("dd", { lang: "en", class: "definizione-en" }, [linked(e.text, known)]));
      } else {
        dl.appendChild(el("dd", { lang: "en" }, [linked(e.text, known)]));
      }
    });
    out.appendChild(dl);
  }

  function failed() {
    app.appendChild(el("p", { class: "errore", role: "alert", text: "La copia offline non è ancora completa su questo dispositivo: apri il sito una volta con la rete." }));
  }

  var path = location.pathname, kind = app.getAttribute("data-pagina");
  var q = new URLSearchParams(location.search).get("q") || "";
  if (kind === "cerca" || kind === "glossario") {
    Promise.all([load(app.getAttribute("data-dati")), load(app.getAttribute("data-indice"))])
      .then(function (both) { (kind === "cerca" ? renderSearch : renderGlossary)(both[0], both[1], q, new URLSearchParams(location.search)); }, failed);
  } else {
    var m = RULE_PATH.exec(path);
    if (m) load(app.getAttribute("data-dati")).then(function (data) { renderRule(data, m[1].toLowerCase()); }, failed);
    else if (path !== "/offline/regola") {
      app.insertBefore(el("p", { class: "avviso-offline", role: "status", text: "Questa pagina non è nella copia offline: senza rete si leggono le regole, il glossario, l'indice analitico e il turno." }), app.firstChild.nextSibling);
    }
  }
})();
