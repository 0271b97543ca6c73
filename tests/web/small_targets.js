// Controls a thumb must hit: at least 44 x 44 CSS pixels (WCAG 2.5.5, Apple's HIG). Returns the smaller ones.
() => {
  const sel = 'button, a.button, summary, select, input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=file]), '
    + '.tile, .tabs label, .check, .dealer-pick, .top a, .links a, .back a, a.edit-round';
  const out = [];
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (!r.width || !r.height || style.visibility === 'hidden' || el.closest('[hidden]')) continue;
    if (el.closest('.sr')) continue;
    if (r.height < 43.5 || r.width < 43.5) out.push(`${el.tagName.toLowerCase()}.${el.className} "${(el.textContent || '').trim().slice(0, 30)}" ${Math.round(r.width)}x${Math.round(r.height)}`);
  }
  return out;
}
