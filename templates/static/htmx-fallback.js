// Offline tables: the page loads the pinned CDN copy of htmx just before this file. When it
// could not load (no internet, a blocked CDN, a wrong integrity hash), write in the vendored
// copy now, while the page is still being parsed: htmx then starts on DOMContentLoaded as the
// CDN copy would have. (A copy added after parsing never starts: htmx waits for a
// DOMContentLoaded that has already fired.) A file, not an inline handler, so the
// Content-Security-Policy allows it.
if (!window.htmx) {
  document.write('<script src="' + document.currentScript.dataset.local + '"><\/script>');
}
