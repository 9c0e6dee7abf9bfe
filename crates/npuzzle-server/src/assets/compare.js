// npuzzle serve: the Compare card (every algorithm on one board) and its
// chart of nodes expanded.
'use strict';

(() => {
  const { t, name } = window.npuzzle.i18n;
  const { fmt, secs } = window.npuzzle.boards;
  const $ = (id) => document.getElementById(id);

  function showComparison(c, scroll) {
    const card = $('compare-card');
    card.hidden = false;
    const answered = c.rows.filter((r) => r.moves !== null);
    const agree = $('compare-agree');
    agree.className = `agree ${c.agree ? 'ok' : 'bad'}`;
    agree.textContent = !answered.length ? t('cmp.none')
      : c.agree ? t('cmp.agree', {
        what: answered[0].moves < 0 ? t('cmp.unreachable') : t('cmp.nmoves', { n: answered[0].moves }),
      })
        : t('cmp.disagree');
    const body = $('compare-table').tBodies[0];
    body.replaceChildren();
    for (const r of c.rows) {
      const tr = body.insertRow();
      const cells = [
        [name('algo', r.algorithm)], [r.heuristic ? name('h', r.heuristic) : '-'],
        [r.moves === null ? '-' : r.moves < 0 ? t('cmp.unreachable') : r.moves, 'num'],
        [fmt(r.expanded), 'num'], [fmt(r.generated), 'num'], [fmt(r.peak_states), 'num'],
        [r.skipped ? '-' : secs(r.seconds), 'num'], [r.skipped || '', 'note'],
      ];
      for (const [text, cls] of cells) {
        const td = tr.insertCell();
        td.textContent = text;
        if (cls) td.className = cls;
      }
    }
    drawChart(c.rows);
    if (scroll) card.scrollIntoView({ behavior: 'smooth', block: 'nearest' });
  }

  // Bars of nodes expanded on a log10 scale, with a grid line per power of ten.
  function drawChart(rows) {
    const chart = $('compare-chart');
    chart.replaceChildren();
    const max = Math.max(10, ...rows.map((r) => r.expanded));
    const top = Math.ceil(Math.log10(max + 1));
    const frac = (n) => Math.log10(n + 1) / top;
    const el = (tag, cls, text) => {
      const e = document.createElement(tag);
      if (cls) e.className = cls;
      if (text !== undefined) e.textContent = text;
      return e;
    };
    for (const r of rows) {
      const label = name('algo', r.algorithm) + (r.heuristic ? ` · ${name('h', r.heuristic)}` : '');
      chart.append(el('div', 'label', label));
      const track = el('div', 'track');
      for (let p = 1; p < top; p++) {
        const g = el('div', 'grid');
        g.style.left = `${frac(10 ** p) * 100}%`;
        track.append(g);
      }
      if (r.skipped) {
        const v = el('div', 'value skipped', t('cmp.notRun'));
        v.title = r.skipped;
        track.append(v);
      } else {
        const f = frac(r.expanded);
        const bar = el('div', 'bar');
        bar.style.width = `${f * 100}%`;
        const v = el('div', `value${f > 0.75 ? ' inside' : ''}`, fmt(r.expanded));
        if (f > 0.75) v.style.right = `${(1 - f) * 100}%`;
        else v.style.left = `${f * 100}%`;
        track.append(bar, v);
      }
      chart.append(track);
    }
    const axis = el('div', 'axis');
    for (let p = 0; p <= top; p++) {
      const s = el('span', '', p === 0 ? '0' : p <= 3 ? fmt(10 ** p) : `1e${p}`);
      s.style.left = `${frac(p === 0 ? 0 : 10 ** p) * 100}%`;
      axis.append(s);
    }
    chart.append(axis);
  }

  window.npuzzle.compare = { show: showComparison };
})();
