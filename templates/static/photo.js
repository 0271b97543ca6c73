// Pile photos: shrink a snapped photo in the browser (canvas, ~1600 px JPEG), send it with
// the round form, and swap in the form the server answers (the picker filled in).
// Corrections, "Keep with" and the Yes / No of a suggestion go the same way (the server
// answers 303 to the form as it now stands; fetch follows it).  Without JavaScript the
// same buttons post the same form.
(function () {
  "use strict";
  var SIDE = 1600;
  var NO_PHOTO = "Choose or take a photo first (📷 Snap), or tap the cards in by hand; the cards you tapped are kept.";
  document.documentElement.classList.add("js-photo");

  function shrink(file) {
    if (!window.createImageBitmap || !file.type || file.type.indexOf("image/") !== 0) {
      return Promise.resolve(file);
    }
    return createImageBitmap(file, { imageOrientation: "from-image" }).then(function (bmp) {
      var r = Math.min(1, SIDE / Math.max(bmp.width, bmp.height));
      if (r === 1 && file.size < 2e6) { return file; }
      var c = document.createElement("canvas");
      c.width = Math.round(bmp.width * r); c.height = Math.round(bmp.height * r);
      c.getContext("2d").drawImage(bmp, 0, 0, c.width, c.height);
      return new Promise(function (ok) {
        c.toBlob(function (b) { ok(b || file); }, "image/jpeg", 0.85);
      });
    }).catch(function () { return file; });
  }

  function badges(form) {
    form.querySelectorAll(".tile .conf").forEach(function (e) { e.remove(); });
    form.querySelectorAll(".tile.uncertain-pick").forEach(function (t) { t.classList.remove("uncertain-pick"); });
    form.querySelectorAll(".det[data-card]").forEach(function (li) {
      if (!li.dataset.card) { return; }
      var box = form.querySelector('input[name="' + li.dataset.slot + '"][value="' + li.dataset.card + '"]');
      if (!box) { return; }
      var tile = box.closest(".tile");
      if (tile.querySelector(".conf")) { return; }
      var s = document.createElement("span");
      s.className = "conf" + (li.dataset.uncertain === "true" ? " uncertain" : "");
      s.textContent = li.dataset.conf + "%" + (li.dataset.uncertain === "true" ? "?" : "");
      tile.appendChild(s);
      if (li.dataset.uncertain === "true") { tile.classList.add("uncertain-pick"); }
    });
  }

  function send(form, url, extra, status) {
    var fd = new FormData(form);
    Array.from(fd.keys()).forEach(function (k) { if (k.indexOf("snap-") === 0) { fd.delete(k); } });
    (extra || []).forEach(function (kv) {
      if (kv.length > 2) { fd.append(kv[0], kv[1], kv[2]); } else { fd.append(kv[0], kv[1]); }
    });
    var upload = (extra || []).some(function (kv) { return kv.length > 2; });
    if (status) { status.textContent = upload ? "Detecting cards…" : "Updating…"; }
    return fetch(url, { method: "POST", body: fd, headers: { "X-Photo": "1" } })
      .then(function (resp) { return resp.text().then(function (t) { return [resp, t]; }); })
      .then(function (rt) {
        var doc = new DOMParser().parseFromString(rt[1], "text/html");
        var fresh = doc.getElementById("round-form");
        if (!fresh) {
          var msg = doc.querySelector(".error, main p");
          // Only the latest photo's error stays on screen.
          var old = status && status.closest(".photo-slot").querySelector("p.error");
          if (old) { old.remove(); }
          if (status) { status.textContent = "Upload failed (" + rt[0].status + "): " + (msg ? msg.textContent : "") + " Tap the cards in by hand."; }
          return;
        }
        var y = window.scrollY;
        form.replaceWith(fresh);
        if (window.htmx) { window.htmx.process(fresh); }
        badges(fresh);
        window.scrollTo(0, y);
        fresh.dispatchEvent(new Event("change", { bubbles: true }));
      })
      .catch(function (e) {
        if (status) { status.textContent = "Upload failed (" + e + "). The picker still works: tap the cards in."; }
      });
  }

  document.addEventListener("change", function (ev) {
    var t = ev.target;
    var form = t.closest && t.closest("#round-form");
    if (!form) { return; }
    if (t.matches("input[data-snap]") && t.files && t.files.length) {
      ev.stopPropagation();
      var slot = t.dataset.snap;
      var btn = form.querySelector('button[name="snap"][value="' + slot + '"]');
      var status = t.closest(".photo-slot").querySelector(".snap-status");
      shrink(t.files[0]).then(function (blob) {
        send(form, btn.getAttribute("formaction"), [["snap", slot], ["snap-" + slot, blob, "photo.jpg"]], status);
      });
    } else if (t.matches("select[data-photo-fix]")) {
      ev.stopPropagation();
      var b = form.querySelector("button.apply-fix");
      send(form, b.getAttribute("formaction"), [], null);
    }
  }, true);

  document.addEventListener("click", function (ev) {
    var b = ev.target.closest && ev.target.closest("button[data-photo]");
    var form = b && b.closest("#round-form");
    if (b && form) {
      ev.preventDefault();
      var st = b.closest(".photo-slot").querySelector(".snap-status");
      var input = b.name === "snap" && b.value && form.querySelector('input[data-snap="' + b.value + '"]');
      if (input) {  // Detect cards: a chosen photo is already on its way (the change event sends it)
        if (!(input.files && input.files.length) && st) { st.textContent = NO_PHOTO; }  // as the server says
        return;
      }
      send(form, b.getAttribute("formaction"), [[b.name, b.value]], st);
      return;
    }
    var a = ev.target.closest && ev.target.closest("a[data-fix]");
    if (a) {
      ev.preventDefault();
      var li = document.getElementById(a.dataset.fix);
      if (!li) { return; }
      var sel = li.querySelector("select");
      li.scrollIntoView({ block: "center" });
      li.classList.add("flash");
      setTimeout(function () { li.classList.remove("flash"); }, 1200);
      if (!sel) {  // a suggestion: its Yes button takes the focus
        var yes = li.querySelector("button");
        if (yes) { yes.focus(); }
        return;
      }
      sel.focus();
      try { if (sel.showPicker) { sel.showPicker(); } } catch (e) { /* needs a user gesture on some browsers */ }
    }
  });

  // A suggestion under the finger or the focus lights up its box on the photo.
  function highlight(ev, on) {
    var li = ev.target.closest && ev.target.closest(".ask[data-box]");
    var g = li && document.getElementById(li.dataset.box);
    if (g) { g.classList.toggle("hl", on); }
  }
  ["mouseover", "focusin"].forEach(function (t) { document.addEventListener(t, function (ev) { highlight(ev, true); }); });
  ["mouseout", "focusout"].forEach(function (t) { document.addEventListener(t, function (ev) { highlight(ev, false); }); });

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("round-form");
    if (form) { badges(form); }
  });
})();
