/* tau-emotion report: the episode browser. Plain script, no dependencies, works offline. */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("report-data").textContent);
  var episodes = data.episodes;
  var PAGE = 100;
  var shown = PAGE;
  var filtered = episodes;
  var current = null;

  function $(id) { return document.getElementById(id); }
  function esc(text) {
    return String(text == null ? "" : text).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  // Outcomes and failure categories are snake_case ids; run, domain and family names are shown as written.
  function label(id) { return id.replace(/_/g, " "); }

  // One lower-case haystack per episode, built once, so typing in the search box stays fast.
  episodes.forEach(function (e) {
    var parts = [e.run, e.domain, e.task_id, e.family, e.condition || "", e.termination, e.outcome];
    e.messages.forEach(function (m) {
      if (m.content) parts.push(m.content);
      if (m.reasoning) parts.push(m.reasoning);
      (m.tool_calls || []).forEach(function (c) { parts.push(c.name); });
    });
    if (e.failure) parts.push(e.failure.category);
    e._hay = parts.join("\n").toLowerCase();
  });

  function fill(select, values, show) {
    values.forEach(function (v) {
      var o = document.createElement("option");
      o.value = v; o.textContent = show(v);
      select.appendChild(o);
    });
  }
  function unique(value) {
    var seen = {};
    episodes.forEach(function (e) { var v = value(e); if (v) seen[v] = true; });
    return Object.keys(seen).sort();
  }
  function category(e) { return e.failure ? e.failure.category : ""; }
  function asWritten(v) { return v; }
  fill($("f-run"), unique(function (e) { return e.run; }), asWritten);
  fill($("f-domain"), unique(function (e) { return e.domain; }), asWritten);
  fill($("f-outcome"), unique(function (e) { return e.outcome; }), label);
  fill($("f-family"), unique(function (e) { return e.family; }), asWritten);
  fill($("f-category"), unique(category), label);
  var FILTERS = ["f-run", "f-domain", "f-outcome", "f-family", "f-category", "f-notes", "f-search"];

  function applyFilters() {
    var run = $("f-run").value, domain = $("f-domain").value, out = $("f-outcome").value;
    var family = $("f-family").value, notes = $("f-notes").value, cat = $("f-category").value;
    var terms = $("f-search").value.toLowerCase().split(/\s+/).filter(Boolean);
    filtered = episodes.filter(function (e) {
      if (run && e.run !== run) return false;
      if (domain && e.domain !== domain) return false;
      if (out && e.outcome !== out) return false;
      if (family && e.family !== family) return false;
      if (cat && category(e) !== cat) return false;
      if (notes === "violations" && !e.violations.length) return false;
      if (notes === "hallucinations" && !e.hallucinations.length) return false;
      if (notes === "empathy" && !e.empathy_turns.length) return false;
      if (notes === "lookupable" && !e.lookupable.length) return false;
      for (var i = 0; i < terms.length; i++) if (e._hay.indexOf(terms[i]) < 0) return false;
      return true;
    });
    shown = PAGE;
    renderList();
  }

  function renderList() {
    var rows = filtered.slice(0, shown).map(function (e) {
      var turns = e.messages.filter(function (m) { return m.role === "user" || (m.role === "assistant" && m.content); }).length;
      return '<tr data-id="' + e.id + '">' +
        "<td class=num>" + e.id + '</td><td class="wrap">' + esc(e.run) + "</td><td>" + esc(e.domain) + "</td>" +
        '<td class="wrap">' + esc(e.task_id) + "</td><td class=num>" + e.trial + "</td>" +
        '<td><span class="badge fam">' + esc(e.family) + "</span></td>" +
        '<td><span class="badge ' + e.outcome + '">' + label(e.outcome) + "</span></td>" +
        "<td class=num>" + e.reward.toFixed(0) + "</td><td class=num>" + turns + "</td>" +
        "<td class=num>" + e.tool_calls + '</td><td class="wrap">' + esc(label(category(e))) + "</td></tr>";
    });
    $("episode-rows").innerHTML = rows.join("");
    $("episode-count").textContent = filtered.length + " of " + episodes.length + " episodes";
    $("show-more").style.display = filtered.length > shown ? "" : "none";
  }

  function json(value) { return esc(JSON.stringify(value, null, 2)); }

  function notesByIndex(e) {
    var notes = {};
    function add(i, html) { (notes[i] = notes[i] || []).push(html); }
    e.empathy_turns.forEach(function (i) { add(i, '<span class="badge">♥ acknowledges feelings</span>'); });
    e.violations.forEach(function (v) { if (v.message_index != null) add(v.message_index, '<span class="badge failed" title="' + esc(v.detail) + '">⚠ ' + esc(v.rule_id) + "</span>"); });
    e.hallucinations.forEach(function (h) { add(h.message_index, '<span class="badge walked_away" title="not in the task">✎ invented ' + esc(h.kind) + ": " + esc(h.value) + "</span>"); });
    e.lookupable.forEach(function (a) { add(a.message_index, '<span class="badge walked_away">? could look up ' + esc(a.value) + "</span>"); });
    return notes;
  }

  function renderEpisode(e) {
    var notes = notesByIndex(e);
    var b = e.breakdown;
    var h = '<div class="facts">' +
      fact("outcome", '<span class="badge ' + e.outcome + '">' + label(e.outcome) + "</span>") +
      fact("reward", e.reward.toFixed(1)) + fact("termination", esc(e.termination)) +
      fact("emotion", esc(e.condition || "neutral")) + fact("run", esc(e.run)) +
      fact("tool calls / follow-ups", e.tool_calls + " / " + e.follow_ups) + "</div>";
    if (b) {
      h += '<div class="panel reward"><h4>Reward breakdown</h4>' + esc(b.reason) + "<ul>" +
        "<li>database matches gold: <b>" + (b.db_match ? "yes" : "no") + "</b></li>" +
        "<li>outputs missing: " + (b.outputs_missing.length ? esc(b.outputs_missing.join(", ")) : "none") + "</li>" +
        "<li>dissatisfied exit: " + (b.dissatisfied ? "yes" : "no") + "</li>" +
        '<li class="ci">final ' + esc(b.final_hash.slice(0, 12)) + " · gold " + esc(b.gold_hash.slice(0, 12)) + "</li></ul></div>";
    }
    if (e.failure) {
      var f = e.failure;
      h += '<div class="panel"><h4>Failure</h4><b>' + esc(label(f.category)) + "</b> · fault: " +
        esc(f.fault || "unresolved") + " · by " + esc(f.source) + (f.explanation ? "<br>" + esc(f.explanation) : "") +
        (f.evidence.length ? "<ul>" + f.evidence.map(function (x) { return "<li>" + esc(x) + "</li>"; }).join("") + "</ul>" : "") + "</div>";
    }
    if (e.errors.length) {
      h += '<div class="panel"><h4>Errors</h4><ul>' + e.errors.map(function (x) { return "<li>" + esc(x.kind) + ": " + esc(x.message) + "</li>"; }).join("") + "</ul></div>";
    }
    if (e.violations.length) {
      h += '<div class="panel"><h4>Policy violations</h4><ul>' + e.violations.map(function (v) { return "<li><b>" + esc(v.rule_id) + "</b>: " + esc(v.detail) + "</li>"; }).join("") + "</ul></div>";
    }
    if (e.instruction) h += '<details class="panel"><summary>Task instruction</summary><pre>' + esc(e.instruction) + "</pre></details>";
    h += '<details class="panel"><summary>System prompt</summary><pre>' + esc(data.system_prompts[e.system] || "") + "</pre></details>";
    h += '<div class="chat">';
    e.messages.forEach(function (m, i) {
      if (m.role === "system") return;
      var extra = (notes[i] || []).join(" ");
      if (m.role === "tool") {
        var text = m.content || "";
        h += '<div class="result' + (m.error ? " err" : "") + '"><span class="idx">#' + i + "</span> " +
          "<b>" + esc(m.name || "tool") + "</b>" + (m.error ? ' <span class="badge failed">error</span>' : "") +
          (text.length > 400 ? "<details><summary>result (" + text.length + " chars)</summary><pre>" + esc(text) + "</pre></details>" : "<pre>" + esc(text) + "</pre>") + "</div>";
        return;
      }
      if (m.reasoning) {
        h += '<details class="panel reasoning"><summary><span class="idx">#' + i + "</span> agent reasoning</summary><pre>" + esc(m.reasoning) + "</pre></details>";
      }
      if (m.content) {
        var flagged = m.role === "user" && e.hallucinations.some(function (x) { return x.message_index === i; });
        h += '<div class="msg ' + m.role + (flagged ? " flagged" : "") + '"><div class="who"><span class="idx">#' + i + "</span>" +
          (m.role === "user" ? "customer" : "agent") + " " + extra + "</div>" + esc(m.content) + "</div>";
        extra = "";
      }
      (m.tool_calls || []).forEach(function (c) {
        h += '<div class="call"><span class="idx">#' + i + "</span> <b>" + esc(c.name) + "</b>(" + json(c.arguments) + ")" +
          (c.parse_error ? ' <span class="badge failed">' + esc(c.parse_error) + "</span>" : "") + " " + extra + "</div>";
        extra = "";
      });
    });
    h += "</div>";
    return h;
  }
  function fact(name, html) { return '<div class="fact"><span>' + name + "</span>" + html + "</div>"; }

  // Opening from the list adds a history entry, so Back closes the conversation; stepping
  // through the list replaces it, so Back does not replay every step.
  function open(id, how) {
    var e = episodes[id];
    if (!e) return;
    var was = current;
    current = id;
    $("drawer-title").textContent = e.domain + "/" + e.task_id + " · trial " + e.trial + " · " + e.run;
    $("drawer-body").innerHTML = renderEpisode(e);
    $("drawer").classList.add("open");
    $("drawer-bg").classList.add("open");
    $("drawer").scrollTop = 0;
    if (location.hash === "#episode-" + id) return;
    if (was === null && how !== "replace") history.pushState(null, "", "#episode-" + id);
    else history.replaceState(null, "", "#episode-" + id);
  }
  function close() {
    current = null;
    $("drawer").classList.remove("open");
    $("drawer-bg").classList.remove("open");
    // Leave a section link the reader followed (#failures ...) as it is.
    if (/^#episode-\d+$/.test(location.hash)) history.replaceState(null, "", "#episodes");
  }
  // The filtered list is in id order, so the neighbours of the open episode are the nearest
  // ids on either side, whether or not the open one still passes the filters.
  function step(delta) {
    if (current === null) return;
    var next = null;
    filtered.forEach(function (e) {
      if (delta > 0 && e.id > current && next === null) next = e;
      if (delta < 0 && e.id < current) next = e;
    });
    if (next) open(next.id, "replace");
  }
  function followHash() {
    var m = /^#episode-(\d+)$/.exec(location.hash);
    if (m && episodes[Number(m[1])]) open(Number(m[1]), "replace");
    else if (current !== null) close();
  }

  FILTERS.forEach(function (id) { $(id).addEventListener(id === "f-search" ? "input" : "change", applyFilters); });
  $("show-more").addEventListener("click", function () { shown += PAGE; renderList(); });
  $("episode-rows").addEventListener("click", function (ev) {
    var row = ev.target.closest("tr[data-id]");
    if (row) open(Number(row.getAttribute("data-id")));
  });
  $("drawer-close").addEventListener("click", close);
  $("drawer-prev").addEventListener("click", function () { step(-1); });
  $("drawer-next").addEventListener("click", function () { step(1); });
  $("drawer-bg").addEventListener("click", close);
  document.addEventListener("keydown", function (ev) {
    if (current === null) return;
    if (ev.key === "Escape") close();
    else if (ev.key === "ArrowRight" || ev.key === "j") step(1);
    else if (ev.key === "ArrowLeft" || ev.key === "k") step(-1);
  });
  // Failure-taxonomy chips and the like link to a pre-filtered list via data-filter attributes:
  // the list then shows exactly what the spec names, whatever filters were set before.
  document.querySelectorAll("[data-filter]").forEach(function (el) {
    el.addEventListener("click", function () {
      var spec = JSON.parse(el.getAttribute("data-filter"));
      FILTERS.forEach(function (id) { $(id).value = ""; });
      Object.keys(spec).forEach(function (k) { var f = $("f-" + k); if (f) f.value = spec[k]; });
      applyFilters();
      $("episodes").scrollIntoView();
    });
  });

  window.addEventListener("hashchange", followHash);
  applyFilters();
  followHash();
})();
