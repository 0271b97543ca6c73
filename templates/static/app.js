// Card picker: a card in another player's pile (or hand) shows as taken and cannot be
// tapped, so it is never silently moved; tab counters follow the taps.
// Everything here is an enhancement: without JavaScript the form still submits and the
// server reports a card in two piles by name.
(function () {
  "use strict";
  function refresh(form) {
    var players = JSON.parse(form.dataset.players || "[]");
    ["pile", "hand"].forEach(function (group) {
      var owner = {};
      form.querySelectorAll('input[type=checkbox][name^="' + group + '-"]').forEach(function (box) {
        if (box.checked) { owner[box.value] = box.dataset.seat; }
      });
      form.querySelectorAll('input[type=checkbox][name^="' + group + '-"]').forEach(function (box) {
        var o = owner[box.value];
        var taken = o !== undefined && o !== box.dataset.seat;
        var tile = box.closest(".tile");
        box.disabled = taken;
        tile.classList.toggle("taken", taken);
        tile.querySelector(".taken-by").textContent = taken ? (o === "f" ? "field" : players[Number(o)]) : "";
      });
    });
    form.querySelectorAll("[data-count]").forEach(function (span) {
      span.textContent = form.querySelectorAll('input[name="' + span.dataset.count + '"]:checked').length;
    });
  }
  document.addEventListener("change", function (ev) {
    var form = ev.target.closest && ev.target.closest("#round-form");
    if (form) { refresh(form); }
  });
  // New session without htmx (offline, CDN and local copy both failed): a preset change
  // reloads the page's option fields from the server, as the no-JS button does.
  document.addEventListener("change", function (ev) {
    var select = ev.target;
    if (select.name !== "ruleset" || window.htmx || !select.form) { return; }
    var action = document.createElement("input");
    action.type = "hidden"; action.name = "action"; action.value = "reload";
    select.form.appendChild(action);
    select.form.submit();
  });
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("round-form");
    if (form) { refresh(form); }
  });
})();
