/* The tournament documents in the offline search (templates/offline_cerca.html): the sections whose
   names hold every word of the query (as the site's search shows above the rules' results), from the
   small file the offline copy keeps (judge/web/tornei.py offline_data). Words are compared folded
   (no accents, lower case) by their first five letters: «lento» finds «lenta», «appelli» «appello». */
(function () {
  "use strict";
  var box = document.getElementById("tornei-offline");
  if (!box || !box.getAttribute("data-dati")) return;
  var params = new URLSearchParams(location.search), query = params.get("q") || "";
  // judge/web/tournament.py tournament_hits: none when the rules alone are searched, nor past the first page.
  var only = (params.get("documento") || "").trim().toLowerCase();
  if (only === "regole" || (["mtr", "ipg", "jar"].indexOf(only) === -1 && parseInt(params.get("pagina"), 10) > 1)) return;

  function fold(s) {
    return s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }
  function stems(s) {
    return fold(s).split(/[^a-z0-9/]+/).filter(function (w) { return w.length > 1; })
      .map(function (w) { return w.slice(0, 5); });
  }
  var STOP = new Set(["di", "il", "la", "lo", "le", "gli", "un", "una", "per", "con", "del", "dell", "della", "che",
                      "the", "of", "a", "an", "to", "in", "e", "o"]);

  var wanted = stems(query).filter(function (w) { return !STOP.has(w); });
  if (!wanted.length) return;
  fetch(box.getAttribute("data-dati")).then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
    .then(function (data) {
      var hits = [];
      data.sezioni.forEach(function (s) {
        var own = new Set(stems(s.n + " " + s.t));
        var found = wanted.filter(function (w) { return own.has(w); }).length;
        if (found === wanted.length) hits.push([found * 10 - s.n.length / 1000, s]);
      });
      hits.sort(function (a, b) { return b[0] - a[0]; });
      if (!hits.length) return;
      var h = document.createElement("h2");
      h.textContent = "Nei documenti dei tornei";
      var list = document.createElement("ol");
      hits.slice(0, 5).forEach(function (hit) {
        var s = hit[1];
        var li = document.createElement("li");
        var a = document.createElement("a");
        a.href = s.u;
        var strong = document.createElement("strong");
        strong.textContent = s.c;
        var title = document.createElement("span");
        title.lang = "en";
        title.textContent = " " + s.t;
        a.appendChild(strong);
        a.appendChild(title);
        li.appendChild(a);
        list.appendChild(li);
      });
      box.className = "risultati-tornei";
      box.appendChild(h);
      box.appendChild(list);
    })
    .catch(function () { /* no file in the copy: the rules' results stay */ });
})();
