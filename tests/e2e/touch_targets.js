() => {
  // Controls: 44 x 44. Every other link: 24 x 24, or WCAG 2.2's spacing exception.
  const CONTROL = 'button, input:not([type=hidden]):not([type=checkbox]):not([type=radio]), select, textarea, summary, ' +
    'header.site a, .briciole a, .parti-elenco a, .sc-j-link, .sc-pick, .sc-lib-actions a, .sc-log .sc-rules a, .sc-events .sc-rules a, ' +
    '.sc-decision .sc-rules a, .scelta-lingua a, .vicini a, .paginazione a, .lettere a';
  const shown = (el) => { const r = el.getBoundingClientRect(), st = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && st.visibility !== 'hidden' && !el.closest('.skip, [hidden], .visually-hidden'); };
  const all = [...document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary')].filter(shown);
  const desc = (el, r) => `${el.tagName.toLowerCase()}${el.className ? '.' + String(el.className).split(' ')[0] : ''} «${(el.textContent || el.name || '').trim().slice(0, 30)}» ${Math.round(r.width)}x${Math.round(r.height)}`;
  const small = [], tight = [];
  const rects = [];
  for (const el of all) for (const r of el.getClientRects()) rects.push([el, r]);
  const undersized = rects.filter(([el, r]) => !el.matches(CONTROL) && (r.height < 23.5 || r.width < 23.5));
  for (const el of all) {
    if (!el.matches(CONTROL)) continue;
    const r = el.getBoundingClientRect();
    if (r.height < 43.5 || r.width < 43.5) small.push(desc(el, r));
  }
  const centre = (r) => [r.left + r.width / 2, r.top + r.height / 2];
  const distToRect = ([x, y], r) => Math.hypot(Math.max(r.left - x, 0, x - r.right), Math.max(r.top - y, 0, y - r.bottom));
  for (const [el, r] of undersized) {
    const c = centre(r);
    const clash = rects.some(([o, q]) => o !== el && (distToRect(c, q) < 12 ||
      (undersized.some(([u, s]) => u === o && s === q) && Math.hypot(c[0] - centre(q)[0], c[1] - centre(q)[1]) < 24)));
    if (clash) tight.push(desc(el, r));
  }
  return { small, tight };
}
