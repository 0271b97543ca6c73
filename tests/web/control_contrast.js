// Borders of form controls against what is behind them: at least 3:1 (WCAG 1.4.11). Returns the fainter ones.
() => {
  const lum = (c) => { const m = c.match(/\d+(\.\d+)?/g).map(Number); const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(m[0]) + 0.7152 * f(m[1]) + 0.0722 * f(m[2]); };
  const bgOf = (el) => { for (let e = el.parentElement; e; e = e.parentElement) { const b = getComputedStyle(e).backgroundColor; if (b && !b.startsWith('rgba(0, 0, 0, 0)') && b !== 'transparent') return b; } return 'rgb(255, 255, 255)'; };
  const out = [];
  for (const el of document.querySelectorAll('input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=file]), select, textarea, button:not(.primary):not(.danger), a.button:not(.primary)')) {
    const r = el.getBoundingClientRect(); if (!r.width) continue;
    const s = getComputedStyle(el); if (parseFloat(s.borderTopWidth) === 0) continue;
    const a = lum(s.borderTopColor), b = lum(bgOf(el));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 3) out.push(`${el.tagName.toLowerCase()}[name=${el.name || ''}] ${ratio.toFixed(2)}:1`);
  }
  return out;
}
