// Enhancements only: without JavaScript every form still submits, the server keeps the taps,
// reports a card in two piles by name, and the "every card left", "show the hand pickers" and
// tile-style buttons post the form back.  No inline scripts (Content-Security-Policy).
(function () {
  "use strict";

  // ---- Card picker: a card in another pile (or hand) shows as taken and cannot be tapped,
  // so it is never silently moved; the tabs' counters follow the taps.
  function seatOf(box) { return box.name.slice(box.name.indexOf("-") + 1); }
  function refresh(form) {
    var players = JSON.parse(form.dataset.players || "[]");
    ["pile", "hand"].forEach(function (group) {
      var boxes = form.querySelectorAll('input[type=checkbox][name^="' + group + '-"]');
      var owner = {};
      boxes.forEach(function (box) { if (box.checked) { owner[box.value] = seatOf(box); } });
      boxes.forEach(function (box) {
        var o = owner[box.value];
        var taken = o !== undefined && o !== seatOf(box);
        var tile = box.closest(".tile");
        box.disabled = taken;
        tile.classList.toggle("taken", taken);
        var by = tile.querySelector(".taken-by");
        if (taken && !by) {
          by = document.createElement("span");
          by.className = "taken-by";
          tile.appendChild(by);
        }
        if (by) { by.textContent = taken ? (o === "f" ? "field" : players[Number(o)]) : ""; }
      });
    });
    form.querySelectorAll("[data-count]").forEach(function (span) {
      var n = form.querySelectorAll('input[name="' + span.dataset.count + '"]:checked').length;
      span.textContent = n;
      var noun = span.nextElementSibling;  // the screen reader's " card" / " cards"
      if (noun && noun.classList.contains("sr")) { noun.textContent = n === 1 ? " card" : " cards"; }
    });
    // "Every card in no pile goes to X" only on the last pile (every other playing pile holds cards;
    // a Hachi-hachi player who drops out or is forced out has none); "Clear X's pile" only on a pile
    // that holds some (as the server renders them, forms.piles.rest_seats).
    var held = {}, seats = {}, total = 0, out = {};
    function sitsOut(seat) {  // looked up once a seat per refresh, not once a card
      if (!(seat in out)) {
        var status = form.querySelector('select[name="status-' + seat + '"]');
        out[seat] = !!status && status.value !== "play";
      }
      return out[seat];
    }
    form.querySelectorAll('input[type=checkbox][name^="pile-"]').forEach(function (box) {
      var seat = seatOf(box);
      if (!sitsOut(seat)) { seats[seat] = true; }
      if (box.checked) { held[seat] = (held[seat] || 0) + 1; total += 1; }
    });
    form.querySelectorAll("button.rest, button.clear").forEach(function (b) {
      var seat = b.value.slice(b.value.indexOf("-") + 1);
      if (b.classList.contains("clear")) { b.hidden = !held[seat]; return; }
      b.hidden = total >= 48 || sitsOut(seat) ||
        Object.keys(seats).some(function (s) { return s !== seat && !held[s]; });
    });
  }
  document.addEventListener("change", function (ev) {
    var form = ev.target.closest && ev.target.closest("#round-form");
    if (form) { refresh(form); }
  });

  document.addEventListener("click", function (ev) {
    var b = ev.target.closest && ev.target.closest("button");
    if (!b) { return; }
    var form = b.closest("#round-form");
    // "Every card in no pile goes to X": one tap for the last pile.
    if (form && b.value.indexOf("rest-") === 0) {
      ev.preventDefault();
      var name = "pile-" + b.value.slice(5);
      form.querySelectorAll('input[name="' + name + '"]:not(:checked):not(:disabled)').forEach(function (box) { box.checked = true; });
      form.querySelector('input[name="' + name + '"]').dispatchEvent(new Event("change", { bubbles: true }));
      return;
    }
    // Compact text tiles or card art: remembered by this device (a cookie the server reads too).
    if (form && b.dataset.pickerMode) {
      ev.preventDefault();
      var mode = b.dataset.pickerMode;
      document.cookie = "picker=" + mode + "; path=/; max-age=31536000; SameSite=Lax";
      document.documentElement.classList.remove("picker-compact", "picker-art");
      document.documentElement.classList.add("picker-" + mode);
      form.querySelectorAll("[data-picker-mode]").forEach(function (x) {
        x.setAttribute("aria-pressed", x.dataset.pickerMode === mode ? "true" : "false");
      });
      return;
    }
    // Share the viewer link: the phone's share sheet, else copy it.
    if (b.dataset.share) {
      var url = b.dataset.share, status = document.getElementById("share-status");
      var say = function (t) { if (status) { status.textContent = t; } };
      if (navigator.share) {
        navigator.share({ title: b.dataset.title || document.title, url: url }).catch(function () {});
      } else if (navigator.clipboard) {
        navigator.clipboard.writeText(url).then(function () { say("Link copied."); },
          function () { say("Copy the link above by hand."); });
      } else {
        say("Copy the link above by hand.");
      }
    }
  });

  // ---- The referee out of reach (the server stopped, the Wi-Fi dropped): the page says so, keeps
  // every tap (they are on the page, and the last live preview kept them on the server too) and
  // offers a retry.  Score and Save ask /ping first, so they never land on the browser's
  // "This site can't be reached".
  function unreachable(form, retry) {
    var box = document.getElementById("offline");
    if (!box) {
      box = document.createElement("div");
      box.id = "offline";
      box.className = "offline";
      box.setAttribute("role", "alert");
      var p = document.createElement("p");
      p.className = "error";
      p.textContent = "Can’t reach the referee (its computer or the Wi-Fi may be down). Your taps are kept on this page; nothing was saved twice or lost.";
      var b = document.createElement("button");
      b.type = "button";
      b.className = "primary";
      b.id = "offline-retry";
      b.textContent = "Retry";
      box.appendChild(p);
      box.appendChild(b);
      var bar = form.querySelector(".entry-bar");
      (bar || form).insertBefore(box, (bar || form).firstChild);
    }
    box.hidden = false;
    box.querySelector("button").onclick = function () { box.hidden = true; retry(); };
  }
  function reached() {
    var box = document.getElementById("offline");
    if (box) { box.hidden = true; }
  }
  document.addEventListener("htmx:sendError", function (ev) {
    var form = document.getElementById("round-form");
    if (form && ev.detail.elt === form) {
      unreachable(form, function () { window.htmx.trigger(form, "change"); });
    }
  });
  document.addEventListener("htmx:afterRequest", function (ev) {
    if (ev.detail.xhr && ev.detail.xhr.status) { reached(); }
  });
  var asked = false;
  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (form.id !== "round-form" || !window.fetch || !form.requestSubmit) { return; }
    if (asked) { asked = false; return; }  // the referee answered: submit as the button said
    ev.preventDefault();
    var submitter = ev.submitter || undefined;
    var go = function () {
      fetch(new URL("/ping", location.href), { cache: "no-store" }).then(function () {
        reached();
        asked = true;
        form.requestSubmit(submitter);
      }, function () { unreachable(form, go); });
    };
    go();
  });

  // ---- A player's name box (data-max-chars) holds as many characters as players count them (an emoji is one,
  // as the server's limit counts grapheme clusters): its maxlength, in UTF-16 units, would cut a name of emoji
  // short or in half, so where the browser can tell characters apart the box takes up to data-max-units units
  // and stops at data-max-chars characters, never half an emoji.  Without Intl.Segmenter maxlength stays.
  var segmenter = window.Intl && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null;
  function nameBox(el) {
    return segmenter && el && el.matches && el.matches("input[data-max-chars]") ? el : null;
  }
  document.addEventListener("focusin", function (ev) {
    var box = nameBox(ev.target);
    if (box && box.dataset.maxUnits) { box.maxLength = Number(box.dataset.maxUnits); }
  });
  document.addEventListener("input", function (ev) {
    var box = nameBox(ev.target);
    if (!box) { return; }
    var chars = Array.from(segmenter.segment(box.value), function (s) { return s.segment; });
    var most = Number(box.dataset.maxChars);
    if (chars.length > most) { box.value = chars.slice(0, most).join(""); }
  });

  // ---- Times: the server writes UTC; show them in this phone's local time.
  function localTimes(root) {
    root.querySelectorAll("time[datetime]").forEach(function (t) {
      var d = new Date(t.getAttribute("datetime"));
      if (isNaN(d)) { return; }
      t.textContent = d.toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
      t.title = t.getAttribute("datetime");
    });
  }

  // ---- The scoreboard updates every 2 s: an open "Why?" (and the share box) stays open.
  var opened = null;
  document.addEventListener("htmx:beforeSwap", function (ev) {
    if (ev.detail.target && ev.detail.target.id === "board") {
      opened = Array.prototype.map.call(ev.detail.target.querySelectorAll("details[open][id]"), function (d) { return d.id; });
      // The session was deleted on another phone: the poll's 404 holds the notice that takes the board's place
      // (its way back; it polls on slowly), and the links below the board lead nowhere now.  Brought back, the
      // notice's poll brings the board back, and those links with it.
      var xhr = ev.detail.xhr;
      if (xhr && xhr.status === 404 && /data-session-deleted/.test(xhr.responseText || "")) {
        ev.detail.shouldSwap = true;
        ev.detail.isError = false;
        document.querySelectorAll("main section.share").forEach(function (s) { s.hidden = true; });
      } else if (xhr && xhr.status === 200 && ev.detail.target.hasAttribute("data-session-deleted")) {
        document.querySelectorAll("main section.share").forEach(function (s) { s.hidden = false; });
      }
    }
  });
  // Restored as soon as the new board is in the page (afterSwap, in the same task as the swap), not at the
  // settle step, which comes a settle delay later: no frame shows the "Why?" closed or the times in UTC.
  document.addEventListener("htmx:afterSwap", function () {
    var board = document.getElementById("board");
    if (opened && board) {
      opened.forEach(function (id) { var d = document.getElementById(id); if (d) { d.open = true; } });
      opened = null;
    }
    localTimes(document);
  });
  document.addEventListener("htmx:afterSettle", function () {
    var form = document.getElementById("round-form");
    if (form) { refresh(form); }
  });

  // A menu whose page answers a change with other parts only, or not at all (the new-session form's game menu;
  // the round forms' player menus): the chosen option's whole text follows it over the menu on a narrow phone
  // (app.css ".menu").
  document.addEventListener("change", function (ev) {
    var select = ev.target, name = select.parentElement && select.parentElement.querySelector(".menu-name");
    if (!select.hasAttribute || !select.hasAttribute("data-menu-follows") || !name) { return; }
    Array.prototype.forEach.call(select.options, function (o) { o.defaultSelected = o.selected; });
    name.textContent = select.options[select.selectedIndex].text;
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

  // ---- The stuck bar and pile tabs: the page's scroll padding follows their heights (app.css), so a
  // control focused or scrolled to lands clear of them however tall the live score grows.
  function measureStuck() {
    var root = document.documentElement;
    [[".entry-bar", "--bar-h"], ["#round-form .tabs", "--tabs-h"]].forEach(function (pair) {
      var el = document.querySelector(pair[0]);
      if (el) { root.style.setProperty(pair[1], Math.ceil(el.getBoundingClientRect().height) + "px"); }
    });
  }
  function watchStuck() {
    measureStuck();
    if (!window.ResizeObserver) { return; }
    var seen = new ResizeObserver(measureStuck);
    document.querySelectorAll(".entry-bar, #round-form .tabs").forEach(function (el) { seen.observe(el); });
  }

  document.addEventListener("DOMContentLoaded", function () {
    watchStuck();
    // A refused Save answered from its POST names the GET that shows it again: Back and Reload use that.
    var again = document.body.dataset.replaceUrl;
    if (again && window.history.replaceState) { window.history.replaceState(null, "", again + location.hash); }
    var form = document.getElementById("round-form");
    if (form) { refresh(form); }
    // A page shown again with its taps kept (Reload, the phone reloading the tab after the camera app)
    // but no live score yet: ask for the preview as the next tap would.
    var preview = document.getElementById("preview");
    if (form && preview && preview.hasAttribute("data-stale") && window.htmx &&
        form.querySelector('input[type=checkbox][name^="pile-"]:checked, input[type=checkbox][name^="hand-"]:checked')) {
      window.htmx.trigger(form, "change");
    }
    // The capture guide has been seen: later pages show it folded (photos.GUIDE_COOKIE).
    if (document.querySelector("details.photo-guide-fold[open]")) {
      document.cookie = "guide-seen=1; path=/; max-age=31536000; SameSite=Lax";
    }
    localTimes(document);
    document.querySelectorAll("[data-share]").forEach(function (b) { b.hidden = false; });
  });
})();
