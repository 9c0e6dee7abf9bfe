// npuzzle serve: the Play tab. A person solves a board by clicking tiles
// (a click slides the whole run between the tile and the blank: one push)
// or with the arrow keys (the way the tiles move, as speedsolvers expect);
// hints come from /api/solve, the verdict from /api/analyse.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);
  const { t } = window.npuzzle.i18n;
  const { DIRS, layout, moved, shuffled, reachable } = window.npuzzle.boards;
  // An arrow names the way the tiles slide, so the blank goes the other way.
  const KEYS = { ArrowUp: 'D', ArrowDown: 'U', ArrowLeft: 'R', ArrowRight: 'L' };
  const TILE = { U: 'D', D: 'U', L: 'R', R: 'L' };
  const RANDOM = { 'random-3x3': [3, 3], 'random-2x4': [2, 4], 'random-4x4': [4, 4] };

  const pl = {
    rows: 3, cols: 3, start: [], goal: [], tiles: [],
    pushes: [], // each click or key: the blank's steps, all one way
    began: null, // performance.now() of the first move
    ended: null, // elapsed ms when solved
    clock: null,
    hint: null, // cells of the tiles an optimal next move slides
    busy: null, // AbortController of the request in flight
    analyses: null, // { stm, mtm } answers of /api/analyse
  };

  const steps = () => pl.pushes.flat();
  const solved = () => pl.tiles.join() === pl.goal.join();
  // Runs of equal steps: a path's multi-tile length (two clicks the same
  // way are one push).
  const mtm = (path) => path.filter((d, i) => i === 0 || d !== path[i - 1]).length;
  const tileText = (path) => path.map((d) => TILE[d]).join('');

  // ---- The board ----------------------------------------------------------

  function buildBoard() {
    const el = $('pl-board');
    el.replaceChildren();
    el.style.setProperty('--rows', pl.rows);
    el.style.setProperty('--cols', pl.cols);
    for (let n = 1; n < pl.rows * pl.cols; n++) {
      const tile = document.createElement('div');
      tile.className = 'tile';
      tile.dataset.tile = n;
      const face = document.createElement('div');
      face.className = 'face';
      face.textContent = n;
      tile.append(face);
      tile.addEventListener('click', () => clickCell(Number(tile.dataset.cell)));
      el.append(tile);
    }
  }

  function drawBoard() {
    const el = $('pl-board');
    const blank = pl.tiles.indexOf(0);
    const br = Math.floor(blank / pl.cols), bc = blank % pl.cols;
    pl.tiles.forEach((n, cell) => {
      if (n === 0) return;
      const tile = el.querySelector(`[data-tile="${n}"]`);
      const r = Math.floor(cell / pl.cols), c = cell % pl.cols;
      tile.dataset.cell = cell;
      tile.style.transform = `translate(${c * 100}%, ${r * 100}%)`;
      tile.classList.toggle('home', pl.goal[cell] === n);
      tile.classList.toggle('movable', !solved() && (r === br || c === bc));
      tile.classList.toggle('hinted', !!pl.hint && pl.hint.includes(cell));
    });
    el.dataset.tiles = pl.tiles.join(' ');
    el.classList.toggle('won', solved() && pl.pushes.length > 0);
  }

  // The blank's steps that bring it to `cell` along its row or column.
  function stepsTo(cell) {
    const b = pl.tiles.indexOf(0);
    const br = Math.floor(b / pl.cols), bc = b % pl.cols, r = Math.floor(cell / pl.cols), c = cell % pl.cols;
    if (r === br && c !== bc) return Array(Math.abs(c - bc)).fill(c > bc ? 'R' : 'L');
    if (c === bc && r !== br) return Array(Math.abs(r - br)).fill(r > br ? 'D' : 'U');
    return [];
  }

  function clickCell(cell) {
    push(stepsTo(cell));
  }

  // One push (a click or a key): the blank's steps, all the same way.
  function push(path) {
    if (!path.length || solved() || pl.busy) return;
    let tiles = pl.tiles;
    for (const d of path) {
      tiles = moved(tiles, pl.cols, pl.rows, d);
      if (!tiles) return;
    }
    if (pl.began === null) {
      pl.began = performance.now();
      pl.clock = setInterval(drawCounters, 100);
    }
    pl.tiles = tiles;
    pl.pushes.push(path);
    pl.hint = null;
    $('pl-hint-text').textContent = '';
    if (solved()) finish();
    render();
  }

  // ---- Counters and the move list --------------------------------------

  function elapsed() {
    if (pl.ended !== null) return pl.ended;
    return pl.began === null ? 0 : performance.now() - pl.began;
  }

  const clockText = (ms) => {
    const s = ms / 1000;
    return `${Math.floor(s / 60)}:${(s % 60).toFixed(1).padStart(4, '0')}`;
  };

  function drawCounters() {
    const path = steps();
    $('pl-stm').textContent = path.length;
    $('pl-mtm').textContent = mtm(path);
    $('pl-time').textContent = clockText(elapsed());
  }

  // The moves so far, in tile notation, a push per item (R2 for RR).
  function drawMoves() {
    const list = $('pl-moves');
    list.replaceChildren();
    const path = steps();
    if (!path.length) {
      const none = document.createElement('span');
      none.className = 'none';
      none.textContent = t('pl.noMoves');
      list.append(none);
      return;
    }
    let i = 0;
    while (i < path.length) {
      let j = i;
      while (j < path.length && path[j] === path[i]) j++;
      const m = document.createElement('span');
      m.className = 'm done';
      m.textContent = TILE[path[i]] + (j - i > 1 ? j - i : '');
      list.append(m);
      i = j;
    }
    list.scrollTop = list.scrollHeight;
  }

  function render() {
    drawBoard();
    drawCounters();
    drawMoves();
    const done = solved();
    $('pl-undo').disabled = !pl.pushes.length || !!pl.busy;
    $('pl-reset').disabled = !pl.pushes.length || !!pl.busy;
    $('pl-hint').disabled = done || !!pl.busy;
    $('pl-status').textContent = done && pl.pushes.length ? t('pl.solved') : '';
  }

  // ---- Games ---------------------------------------------------------------

  function newGame() {
    const v = $('pl-board-pick').value;
    let start, goal, rows, cols;
    if (RANDOM[v]) {
      [rows, cols] = RANDOM[v];
      goal = layout('blank-last', rows, cols);
      start = shuffled(goal, rows, cols);
    } else if (v === 'solve') {
      const s = window.npuzzle.solver && window.npuzzle.solver.current();
      if (!s) return;
      ({ rows, cols } = s);
      start = s.start.slice();
      goal = s.goal.slice();
    } else {
      const [a, b] = v.split('|').map((x) => x.split(' ').map(Number));
      start = a;
      goal = b;
      rows = cols = Math.round(Math.sqrt(a.length));
    }
    if (!reachable(start, goal, cols)) {
      showError(t('pl.unreachable'));
      return;
    }
    Object.assign(pl, { rows, cols, start, goal });
    buildBoard();
    drawGoal();
    restart();
  }

  function drawGoal() {
    const el = $('pl-goal');
    el.style.setProperty('--rows', pl.rows);
    el.style.setProperty('--cols', pl.cols);
    el.replaceChildren();
    pl.goal.forEach((n, cell) => {
      if (n === 0) return;
      const tile = document.createElement('div');
      tile.className = 'tile';
      tile.style.transform = `translate(${(cell % pl.cols) * 100}%, ${Math.floor(cell / pl.cols) * 100}%)`;
      const face = document.createElement('div');
      face.className = 'face';
      face.textContent = n;
      tile.append(face);
      el.append(tile);
    });
  }

  // Back to the start: no moves, the clock at zero.
  function restart() {
    if (pl.busy) pl.busy.abort();
    clearInterval(pl.clock);
    Object.assign(pl, { tiles: pl.start.slice(), pushes: [], began: null, ended: null, clock: null, hint: null, analyses: null });
    $('pl-hint-text').textContent = '';
    $('pl-result').hidden = true;
    showError('');
    render();
  }

  function undo() {
    if (!pl.pushes.length || pl.busy) return;
    const last = pl.pushes.pop();
    const back = { U: 'D', D: 'U', L: 'R', R: 'L' };
    for (const d of last.slice().reverse()) pl.tiles = moved(pl.tiles, pl.cols, pl.rows, back[d]);
    if (pl.ended !== null) {
      // solved, then undone: the clock runs on from where it stopped
      pl.began = performance.now() - pl.ended;
      pl.ended = null;
      pl.clock = setInterval(drawCounters, 100);
    }
    pl.hint = null;
    pl.analyses = null;
    $('pl-result').hidden = true;
    $('pl-hint-text').textContent = '';
    render();
  }

  function showError(msg) {
    $('pl-error').textContent = msg;
    $('pl-error').hidden = !msg;
  }

  // ---- The server ----------------------------------------------------------

  const rowsText = (tiles) => Array.from({ length: pl.rows },
    (_, r) => tiles.slice(r * pl.cols, (r + 1) * pl.cols).join(' ')).join(' / ');

  async function post(path, body) {
    const ctl = new AbortController();
    pl.busy = ctl;
    render();
    try {
      const res = await fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: ctl.signal,
      });
      const data = await res.json();
      if (!res.ok) throw new Error(data.error || `HTTP ${res.status}`);
      return data;
    } finally {
      if (pl.busy === ctl) pl.busy = null;
    }
  }

  // Highlights the tiles of an optimal next move in the chosen metric.
  async function hint() {
    if (solved() || pl.busy) return;
    const metric = $('pl-metric').value;
    showError('');
    $('pl-hint-text').textContent = t('pl.thinking');
    try {
      const r = await post('/api/solve', { start: rowsText(pl.tiles), goal: rowsText(pl.goal), metric });
      const path = [...(r.path || '')];
      let k = 0;
      while (k < path.length && path[k] === path[0]) k++;
      // in STM the next move is one step; in MTM the whole first push
      const n = metric === 'mtm' ? k : Math.min(k, 1);
      const b = pl.tiles.indexOf(0);
      const [dr, dc] = DIRS[path[0]];
      pl.hint = Array.from({ length: n }, (_, i) => b + (i + 1) * (dr * pl.cols + dc));
      const tiles = pl.hint.map((cell) => pl.tiles[cell]).join(', ');
      $('pl-hint-text').textContent = t('pl.hintText', { tiles, dir: t(`dir.${TILE[path[0]]}`), n: r.moves, metric: metric.toUpperCase() });
    } catch (e) {
      $('pl-hint-text').textContent = '';
      if (e.name !== 'AbortError') showError(e.message);
    }
    render();
  }

  // The analysis of the person's moves, in both metrics.
  async function finish() {
    pl.ended = elapsed();
    clearInterval(pl.clock);
    pl.clock = null;
    const moves = tileText(steps());
    const base = { start: rowsText(pl.start), goal: rowsText(pl.goal), moves, notation: 'tile' };
    try {
      const stm = await post('/api/analyse', { ...base, metric: 'stm' });
      const mtmA = await post('/api/analyse', { ...base, metric: 'mtm' });
      pl.analyses = { stm, mtm: mtmA };
      showAnalyses();
    } catch (e) {
      if (e.name !== 'AbortError') showError(t('pl.noAnalysis', { msg: e.message }));
    }
    render();
  }

  function showAnalyses() {
    const a = pl.analyses;
    if (!a) return;
    $('pl-result').hidden = false;
    $('pl-summary').textContent = t('pl.summary', { time: clockText(pl.ended) });
    for (const metric of ['stm', 'mtm']) {
      const r = a[metric];
      const box = $(`pl-an-${metric}`);
      box.querySelector('.an-line').textContent = t('pl.anLine', {
        metric: metric.toUpperCase(), n: r.moves, opt: r.optimal, w: r.wasted, d: r.detours.length,
      });
      const list = box.querySelector('.move-string');
      list.replaceChildren();
      for (const m of r.per_move) {
        const s = document.createElement('span');
        s.className = `m done${m.detour ? ' detour' : ''}${m.progress ? '' : ' away'}`;
        s.textContent = m.move;
        s.title = t('pl.moveTitle', { i: m.index, m: m.move, before: m.distance_before, after: m.distance_after });
        list.append(s);
      }
    }
  }

  // ---- Wiring ----------------------------------------------------------------

  function visible() {
    return !$('play-view').hidden;
  }

  function init() {
    $('pl-new').addEventListener('click', newGame);
    $('pl-board-pick').addEventListener('change', newGame);
    $('pl-undo').addEventListener('click', undo);
    $('pl-reset').addEventListener('click', restart);
    $('pl-hint').addEventListener('click', hint);
    document.addEventListener('keydown', (e) => {
      if (!visible()) return;
      const tag = (e.target.tagName || '').toLowerCase();
      if (tag === 'input' || tag === 'select' || tag === 'textarea' || e.altKey || e.ctrlKey || e.metaKey) return;
      const dir = KEYS[e.key];
      if (dir) {
        e.preventDefault();
        push([dir]);
      } else if (e.key === 'z' || e.key === 'Backspace') {
        e.preventDefault();
        undo();
      }
    });
    document.addEventListener('npuzzle:view', (e) => {
      if (e.detail === 'play' && $('pl-board-pick').value === 'solve') newGame();
    });
    window.npuzzle.i18n.onChange(() => {
      render();
      showAnalyses();
      $('pl-hint-text').textContent = '';
    });
    newGame();
  }

  init();
})();
