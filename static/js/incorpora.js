/* judge on other sites: include
     <script src="https://SITO/incorpora.js" defer></script>
   and every rule citation in the page («702.19b», «regola 117.3a», «CR 704.5a–c») becomes a link to the
   rule on this site, with its Italian text on hover, focus or first tap. What counts as a citation
   is decided by the site's linker (/api/citazioni, the same as /collega): «Firefox 115.3» is no rule.
   Options on the script tag: data-dove="article, .post" (where to look; default: the whole page).
   Text inside links, code, forms and [data-judge=no] is left alone. No framework, no cookies. */
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || window.judgeIncorpora) return;
  window.judgeIncorpora = true;
  var site = new URL(script.src, location.href).origin;
  var where = script.getAttribute("data-dove") || "body";
  var SKIP = "a, code, pre, kbd, samp, script, style, noscript, textarea, input, select, button, option, svg, math, [contenteditable], [data-judge=no]";
  var DIGIT = /\d{3}/;  // a text without three digits in a row cites no rule: not sent
  var MAX_BATCH_CHARS = 50000;

  function textNodes() {
    var out = [];
    document.querySelectorAll(where).forEach(function (root) {
      var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
        acceptNode: function (node) {
          if (!DIGIT.test(node.nodeValue)) return NodeFilter.FILTER_REJECT;
          var parent = node.parentElement;
          return parent && !parent.closest(SKIP) ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT;
        }
      });
      var n;
      while ((n = walker.nextNode())) out.push(n);
    });
    return out;
  }

  function batches(nodes) {
    var out = [], current = [], size = 0;
    nodes.forEach(function (node) {
      var len = node.nodeValue.length;
      if (len > MAX_BATCH_CHARS) return;  // a single huge text node: left alone
      if (size + len > MAX_BATCH_CHARS && current.length) { out.push(current); current = []; size = 0; }
      current.push(node);
      size += len;
    });
    if (current.length) out.push(current);
    return out;
  }

  function link(node, spans) {
    if (!spans.length || !node.parentNode) return;
    var text = node.nodeValue, frag = document.createDocumentFragment(), last = 0;
    spans.forEach(function (s) {
      frag.appendChild(document.createTextNode(text.slice(last, s.inizio)));
      var a = document.createElement("a");
      a.href = s.url;
      a.className = "judge-cit";
      a.textContent = text.slice(s.inizio, s.fine);
      a.setAttribute("data-anteprima", "");
      frag.appendChild(a);
      last = s.fine;
    });
    frag.appendChild(document.createTextNode(text.slice(last)));
    node.parentNode.replaceChild(frag, node);
  }

  function send(nodes) {
    return fetch(site + "/api/citazioni", {
      method: "POST",
      credentials: "omit",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ testi: nodes.map(function (n) { return n.nodeValue; }) })
    }).then(function (resp) { if (!resp.ok) throw new Error(resp.status); return resp.json(); })
      .then(function (data) {
        var known = window.judgeAnteprimeNote = window.judgeAnteprimeNote || {};
        Object.keys(data.regole).forEach(function (n) { known[n] = data.regole[n]; });
        nodes.forEach(function (node, i) { link(node, data.testi[i] || []); });
      });
  }

  function loadPreviews() {
    var css = document.createElement("link");
    css.rel = "stylesheet";
    css.href = site + "/static/incorpora.css";
    document.head.appendChild(css);
    var s = document.createElement("script");
    s.src = site + "/static/js/anteprime.js";
    s.setAttribute("data-sito", site);
    s.defer = true;
    document.head.appendChild(s);
  }

  function run() {
    var all = batches(textNodes());
    Promise.all(all.map(send)).then(loadPreviews, function () { /* the page stays as it was */ });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", run);
  else run();
})();
