// npuzzle serve: boards as arrays of tiles (the blank is 0), shared by the
// Solve and Explore views; numbers and times as the page writes them.
'use strict';

(() => {
  const { t } = window.npuzzle.i18n;
  const DIRS = { U: [-1, 0], D: [1, 0], L: [0, -1], R: [0, 1] };

  const range = (n) => Array.from({ length: n }, (_, i) => i);

  function layout(kind, rows, cols) {
    const n = rows * cols;
    if (kind === 'blank-first') return range(n);
    if (kind === 'spiral') return spiral(rows, cols);
    return range(n).map((i) => (i + 1) % n);
  }

  // Tiles 1..n-1 clockwise from the top-left, spiralling in; blank last.
  function spiral(rows, cols) {
    const n = rows * cols;
    const t = new Array(n).fill(0);
    let top = 0, bottom = rows - 1, left = 0, right = cols - 1;
    const order = [];
    while (top <= bottom && left <= right) {
      for (let c = left; c <= right; c++) order.push(top * cols + c);
      for (let r = top + 1; r <= bottom; r++) order.push(r * cols + right);
      if (top < bottom) for (let c = right - 1; c >= left; c--) order.push(bottom * cols + c);
      if (left < right) for (let r = bottom - 1; r > top; r--) order.push(r * cols + left);
      top++; bottom--; left++; right--;
    }
    order.forEach((cell, i) => { t[cell] = i + 1 === n ? 0 : i + 1; });
    return t;
  }

  function moved(tiles, cols, rows, dir) {
    const b = tiles.indexOf(0);
    const r = Math.floor(b / cols) + DIRS[dir][0];
    const c = (b % cols) + DIRS[dir][1];
    if (r < 0 || r >= rows || c < 0 || c >= cols) return null;
    const t = tiles.slice();
    t[b] = t[r * cols + c];
    t[r * cols + c] = 0;
    return t;
  }

  // One row per line, numbers right-aligned so the columns line up.
  function boardText(tiles, cols) {
    const w = String(tiles.length - 1).length;
    return range(tiles.length / cols)
      .map((r) => tiles.slice(r * cols, r * cols + cols).map((t) => String(t).padStart(w)).join(' '))
      .join('\n');
  }

  function inversions(tiles) {
    const a = tiles.filter((t) => t !== 0);
    let inv = 0;
    for (let i = 0; i < a.length; i++) for (let j = i + 1; j < a.length; j++) if (a[i] > a[j]) inv++;
    return inv;
  }

  // Why the server said "unreachable": the invariant every move keeps.
  function whyUnreachable(start, goal, cols) {
    const is = inversions(start), ig = inversions(goal);
    const odd = (x) => t(x % 2 ? 'odd' : 'even');
    if (cols % 2 === 1) return t('why.odd', { cols, is, ig, ps: odd(is), pg: odd(ig) });
    const rs = Math.floor(start.indexOf(0) / cols) + 1, rg = Math.floor(goal.indexOf(0) / cols) + 1;
    return t('why.even', { cols, is, ig, rs, rg, ps: odd(is + rs), pg: odd(ig + rg) });
  }

  function reachable(start, goal, cols) {
    const key = (t) => (cols % 2 ? inversions(t) : inversions(t) + Math.floor(t.indexOf(0) / cols)) % 2;
    return key(start) === key(goal);
  }

  // A random start the goal can be reached from: uniform for boards the
  // complete tables cover and for those the fast solver answers (beyond
  // 5x5), a random walk (no immediate reversals) between, so the search
  // stays within the server's budget.
  function shuffled(goal, rows, cols) {
    const n = rows * cols;
    if (n <= 10 || n > 25) {
      const t = goal.slice();
      for (let i = n - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [t[i], t[j]] = [t[j], t[i]];
      }
      if (!reachable(t, goal, cols)) {
        const [a, b] = t.map((v, i) => [v, i]).filter(([v]) => v !== 0).slice(0, 2).map(([, i]) => i);
        [t[a], t[b]] = [t[b], t[a]];
      }
      return t;
    }
    const steps = n <= 12 ? 80 : n <= 16 ? 44 : 30;
    let t = goal.slice();
    let last = null;
    const opposite = { U: 'D', D: 'U', L: 'R', R: 'L' };
    for (let i = 0; i < steps; i++) {
      const options = Object.keys(DIRS).filter((d) => d !== opposite[last] && moved(t, cols, rows, d));
      last = options[Math.floor(Math.random() * options.length)];
      t = moved(t, cols, rows, last);
    }
    return t;
  }

  const fmt = (n) => Number(n).toLocaleString('en-US');
  const secs = (s) => (s < 0.001 ? `${Math.max(1, Math.round(s * 1e6))} µs`
    : s < 1 ? `${(s * 1000).toFixed(1)} ms` : `${s.toFixed(2)} s`);

  window.npuzzle.boards = {
    DIRS, range, layout, spiral, moved, boardText, inversions, whyUnreachable, reachable, shuffled, fmt, secs,
  };
})();
