// npuzzle serve: the page's script. Plain JavaScript, no build step, no
// network but this server's own /api.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);

  const SIZES = [
    [2, 2], [2, 3], [3, 2], [2, 4], [4, 2], [3, 3], [2, 5], [5, 2],
    [3, 4], [4, 3], [3, 5], [5, 3], [4, 4], [4, 5], [5, 4], [5, 5],
    // beyond 5x5 the server answers with the fast solver (not optimal)
    [6, 6], [7, 7], [8, 8], [9, 9], [10, 10],
  ];
  const DIRS = { U: [-1, 0], D: [1, 0], L: [0, -1], R: [0, 1] };
  const KEYS = { ArrowUp: 'U', ArrowDown: 'D', ArrowLeft: 'L', ArrowRight: 'R' };

  const st = {
    rows: 3,
    cols: 3,
    start: [],
    goal: [],
    goalKind: 'blank-last',
    sol: null, // { boards, path, step }
    timer: null,
    busy: null, // AbortController of the request in flight
    parseTimer: null,
    parseSeq: 0,
  };

  // ---- Boards as arrays --------------------------------------------------

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
    const odd = (x) => (x % 2 ? 'odd' : 'even');
    if (cols % 2 === 1) {
      return `On a board ${cols} wide every move keeps the parity of the number of inversions ` +
        `(pairs of tiles in the wrong order, blank ignored). The start has ${is} (${odd(is)}), ` +
        `the goal has ${ig} (${odd(ig)}), so no sequence of moves joins them.`;
    }
    const rs = Math.floor(start.indexOf(0) / cols) + 1, rg = Math.floor(goal.indexOf(0) / cols) + 1;
    return `On a board ${cols} wide every move keeps the parity of inversions + the blank's row. ` +
      `The start has ${is} inversions with the blank in row ${rs} (${is} + ${rs} is ${odd(is + rs)}), ` +
      `the goal ${ig} with the blank in row ${rg} (${ig} + ${rg} is ${odd(ig + rg)}), ` +
      'so no sequence of moves joins them.';
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

  // ---- Drawing a board ---------------------------------------------------

  class BoardView {
    constructor(el, onMove) {
      this.el = el;
      this.onMove = onMove;
      this.tiles = new Map();
      this.key = '';
    }

    draw(tiles, rows, cols, goal) {
      if (tiles.length !== rows * cols) return;
      const key = `${rows}x${cols}`;
      const rebuilt = key !== this.key;
      if (rebuilt) {
        this.el.replaceChildren();
        this.tiles.clear();
        this.key = key;
        this.el.style.setProperty('--rows', rows);
        this.el.style.setProperty('--cols', cols);
        for (let t = 1; t < rows * cols; t++) {
          const tile = document.createElement('div');
          tile.className = 'tile';
          tile.dataset.tile = t;
          const face = document.createElement('div');
          face.className = 'face';
          face.textContent = t;
          tile.append(face);
          tile.addEventListener('click', () => this.onMove(Number(tile.dataset.cell)));
          this.el.append(tile);
          this.tiles.set(t, tile);
        }
      }
      // Slide a move or a line of tiles; jump to a whole new board at once.
      const moving = tiles.filter((t, cell) => t !== 0 && this.tiles.get(t).dataset.cell !== String(cell)).length;
      const jump = rebuilt || moving >= Math.max(rows, cols);
      if (jump) this.el.classList.add('still');
      const blank = tiles.indexOf(0);
      const br = Math.floor(blank / cols), bc = blank % cols;
      tiles.forEach((t, cell) => {
        if (t === 0) return;
        const tile = this.tiles.get(t);
        const r = Math.floor(cell / cols), c = cell % cols;
        tile.dataset.cell = cell;
        tile.style.transform = `translate(${c * 100}%, ${r * 100}%)`;
        tile.classList.toggle('home', goal !== null && goal[cell] === t);
        tile.classList.toggle('movable', r === br || c === bc);
      });
      this.el.dataset.tiles = tiles.join(' ');
      if (jump) {
        void this.el.offsetWidth; // apply the new places before transitions return
        this.el.classList.remove('still');
      }
    }
  }

  const mainView = new BoardView($('board'), (cell) => slideTo('start', cell));
  const goalView = new BoardView($('goal-board'), (cell) => slideTo('goal', cell));

  // The blank's moves that bring it to `cell` along its row or column.
  function movesTo(tiles, cols, cell) {
    const b = tiles.indexOf(0);
    const br = Math.floor(b / cols), bc = b % cols, r = Math.floor(cell / cols), c = cell % cols;
    if (r === br && c !== bc) return Array(Math.abs(c - bc)).fill(c > bc ? 'R' : 'L');
    if (c === bc && r !== br) return Array(Math.abs(r - br)).fill(r > br ? 'D' : 'U');
    return [];
  }

  function slideTo(which, cell) {
    const tiles = which === 'start' ? shown() : st.goal;
    let t = tiles;
    for (const d of movesTo(tiles, st.cols, cell)) t = moved(t, st.cols, st.rows, d);
    if (t === tiles) return;
    if (which === 'start') setStart(t);
    else setGoal(t, 'custom');
  }

  // The board on screen: the playback position, or the start.
  const shown = () => (st.sol ? st.sol.boards[st.sol.step] : st.start);

  function render() {
    mainView.draw(shown(), st.rows, st.cols, st.goal);
    goalView.draw(st.goal, st.rows, st.cols, null);
    const s = st.sol;
    $('board-caption').textContent = s ? `Move ${s.step} of ${s.boards.length - 1}` : 'Start';
    $('board').setAttribute('aria-label', s ? `Board after move ${s.step}` : 'Start board');
    if (s) {
      $('move-counter').textContent = `${s.step} / ${s.boards.length - 1}`;
      $('move-string').querySelectorAll('.m').forEach((m, i) => {
        m.classList.toggle('done', i < s.step);
        m.classList.toggle('current', i === s.step - 1);
      });
      const cur = $('move-string').querySelector('.current');
      if (cur) cur.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      $('back').disabled = $('first').disabled = s.step === 0;
      $('forward').disabled = $('last').disabled = s.step === s.boards.length - 1;
      showStanding();
    }
  }

  // ---- Editing -----------------------------------------------------------

  function setShape(rows, cols) {
    st.rows = rows;
    st.cols = cols;
    $('start-text').rows = Math.max(2, rows);
    $('goal-text').rows = Math.max(2, rows);
    const sel = $('size');
    const value = `${rows}x${cols}`;
    if (![...sel.options].some((o) => o.value === value)) sel.append(new Option(`${rows} × ${cols}`, value));
    sel.value = value;
  }

  function setStart(tiles, fromText) {
    stopSolution();
    st.start = tiles;
    if (!fromText) $('start-text').value = boardText(tiles, st.cols);
    clearResult();
    render();
  }

  function setGoal(tiles, kind, fromText) {
    stopSolution();
    st.goal = tiles;
    st.goalKind = kind;
    $('goal-kind').value = kind;
    if (!fromText) $('goal-text').value = boardText(tiles, st.cols);
    clearResult();
    render();
  }

  function newBoard(rows, cols) {
    stopSolution();
    setShape(rows, cols);
    const kind = st.goalKind === 'custom' ? 'blank-last' : st.goalKind;
    st.start = layout(kind, rows, cols);
    setGoal(st.start, kind);
    setStart(shuffled(st.goal, rows, cols));
  }

  function showError(msg) {
    $('error').textContent = msg;
    $('error').hidden = !msg;
  }

  function clearResult() {
    $('result').hidden = true;
    $('compare-card').hidden = true;
    showError('');
    $('start-text').classList.remove('invalid');
    $('goal-text').classList.remove('invalid');
  }

  const goalForRequest = () => (st.goalKind === 'custom' ? $('goal-text').value : st.goalKind);

  function problemBody() {
    const body = { start: $('start-text').value, goal: goalForRequest() };
    if (!/[x×*]/i.test(body.start) && !body.start.includes('/') && !body.start.includes('\n')) {
      // A flat list whose count is not square (2x4: 8 tiles) needs the size.
      const count = body.start.trim().split(/[\s,;]+/).filter(Boolean).length;
      if (count === st.rows * st.cols && Math.sqrt(count) % 1 !== 0) body.size = `${st.rows}x${st.cols}`;
    }
    return body;
  }

  // The server's messages speak of command-line flags; say where that is here.
  const pageHint = (msg) => (msg.includes('cannot infer the board size')
    ? `${msg} (here: pick the size first, or write one row per line)` : msg);

  // Typed boards are read by the server (/api/parse), which knows every format.
  function scheduleParse(which) {
    clearTimeout(st.parseTimer);
    if (which === 'goal' && st.goalKind !== 'custom') {
      st.goalKind = 'custom';
      $('goal-kind').value = 'custom';
    }
    st.parseTimer = setTimeout(() => parseTyped(which), 350);
  }

  async function parseTyped(which) {
    clearTimeout(st.parseTimer);
    const seq = ++st.parseSeq;
    const input = $(which === 'start' ? 'start-text' : 'goal-text');
    if (!input.value.trim()) return;
    try {
      const res = await fetch('/api/parse', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(problemBody()),
      });
      const data = await res.json();
      if (seq !== st.parseSeq) return;
      if (!res.ok) {
        input.classList.add('invalid');
        showError(pageHint(data.error));
        return;
      }
      applyParsed(data);
    } catch (e) {
      if (seq === st.parseSeq) showError(`Cannot reach the server: ${e.message}`);
    }
  }

  // Takes the boards as the server read them (parse or solve answer).
  function applyParsed(data) {
    if (data.rows !== st.rows || data.cols !== st.cols) setShape(data.rows, data.cols);
    const sameStart = st.start.join() === data.start.join();
    const sameGoal = st.goal.join() === data.goal.join();
    if (!sameStart || !sameGoal) stopSolution();
    st.start = data.start;
    st.goal = data.goal;
    showError('');
    $('start-text').classList.remove('invalid');
    $('goal-text').classList.remove('invalid');
    if (st.goalKind !== 'custom') $('goal-text').value = boardText(st.goal, st.cols);
    render();
  }

  // ---- Solving and comparing ---------------------------------------------

  async function request(kind) {
    if (st.busy) st.busy.abort();
    clearTimeout(st.parseTimer);
    st.parseSeq++;
    const ctl = new AbortController();
    st.busy = ctl;
    const t0 = performance.now();
    const verb = kind === 'solve' ? 'Solving' : 'Comparing';
    const tick = () => {
      $('status-text').textContent = `${verb}… ${((performance.now() - t0) / 1000).toFixed(1)} s`;
    };
    tick();
    const clock = setInterval(tick, 100);
    $('status').hidden = false;
    $('solve').disabled = $('compare').disabled = true;
    showError('');
    try {
      const res = await fetch(`/api/${kind}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...problemBody(), algo: $('algo').value, heuristic: $('heuristic').value }),
        signal: ctl.signal,
      });
      const data = await res.json();
      if (!res.ok) throw new Error(pageHint(data.error || `HTTP ${res.status}`));
      if (kind === 'solve') showSolution(data);
      else showComparison(data);
    } catch (e) {
      showError(e.name === 'AbortError' ? `${verb} cancelled.` : e.message);
    } finally {
      clearInterval(clock);
      if (st.busy === ctl) {
        st.busy = null;
        $('status').hidden = true;
        $('solve').disabled = $('compare').disabled = false;
      }
    }
  }

  const fmt = (n) => Number(n).toLocaleString('en-US');
  const secs = (s) => (s < 0.001 ? `${Math.max(1, Math.round(s * 1e6))} µs`
    : s < 1 ? `${(s * 1000).toFixed(1)} ms` : `${s.toFixed(2)} s`);

  function showSolution(r) {
    applyParsed(r);
    const res = $('result');
    res.hidden = false;
    res.classList.toggle('unreachable', !r.solvable);
    $('algorithm').textContent = r.heuristic ? `${r.algorithm} (${r.heuristic})` : r.algorithm;
    $('expanded').textContent = fmt(r.stats.expanded);
    $('seconds').textContent = secs(r.stats.seconds);
    if (!r.solvable) {
      $('moves').textContent = 'Unreachable';
      $('moves-unit').textContent = '';
      $('reason').textContent = whyUnreachable(r.start, r.goal, r.cols);
      $('reason').hidden = false;
      $('standing-card').hidden = true;
      stopSolution();
      render();
      return;
    }
    $('moves').textContent = r.moves;
    const noun = r.moves === 1 ? 'move' : 'moves';
    $('moves-unit').textContent = r.optimal
      ? `${noun} (the fewest)`
      : `${noun} (not proven the fewest: at least ${r.lower_bound} are needed, so at most ${r.ratio.toFixed(2)}× the fewest)`;
    $('reason').hidden = r.moves !== 0;
    $('reason').textContent = 'The start is already the goal.';
    const ms = $('move-string');
    ms.replaceChildren();
    [...(r.path || '')].forEach((d, i) => {
      const m = document.createElement('span');
      m.className = 'm';
      m.textContent = d;
      m.title = `Move ${i + 1}: the blank goes ${{ U: 'up', D: 'down', L: 'left', R: 'right' }[d]}`;
      m.addEventListener('click', () => goTo(i + 1));
      ms.append(m);
    });
    if (!r.path) {
      const none = document.createElement('span');
      none.className = 'none';
      none.textContent = 'no moves needed';
      ms.append(none);
    }
    st.sol = { boards: r.boards, path: r.path || '', step: 0, dist: r.distribution };
    drawDistribution(r.distribution);
    $('player').hidden = false;
    $('board-hint').textContent = 'Step through the solution; blue tiles are home. Editing the board starts over from here.';
    render();
  }

  // ---- Where a position stands (boards with complete tables) -------------

  function drawDistribution(d) {
    $('standing-card').hidden = !d;
    const chart = $('dist-chart');
    chart.replaceChildren();
    if (!d) return;
    const top = Math.max(...d.histogram);
    d.histogram.forEach((count, moves) => {
      const bar = document.createElement('span');
      bar.style.height = `${Math.max(2, (100 * count) / top)}%`;
      bar.title = `${fmt(count)} position${count === 1 ? '' : 's'} need${count === 1 ? 's' : ''} ${moves} move${moves === 1 ? '' : 's'}`;
      chart.append(bar);
    });
  }

  function puzzleName(rows, cols) {
    return rows === cols ? `${rows * cols - 1}-puzzle` : `${rows} × ${cols} puzzle`;
  }

  // "This 8-puzzle position needs 24 moves; 51% of all 181,440 need fewer."
  function standingText(d, moves, rows, cols) {
    const fewer = d.histogram.slice(0, moves).reduce((a, b) => a + b, 0);
    const all = d.positions;
    const name = puzzleName(rows, cols);
    const hardest = d.histogram.length - 1;
    const needs = moves === 0 ? 'is the goal itself'
      : `needs ${moves} move${moves === 1 ? '' : 's'}`;
    let share;
    if (fewer === 0) share = `no position needs fewer`;
    else if (all - fewer <= 1000) share = `all but ${fmt(all - fewer)} of the ${fmt(all)} positions need fewer`;
    else if (fewer <= 1000) share = `only ${fmt(fewer)} of the ${fmt(all)} positions need fewer`;
    else share = `${Math.round((100 * fewer) / all)}% of all ${fmt(all)} positions need fewer`;
    const tail = moves === hardest ? ' It is one of the hardest.' : ` The hardest need ${hardest}.`;
    return `This ${name} position ${needs}; ${share}.${tail}`;
  }

  function showStanding() {
    const s = st.sol;
    const d = s && s.dist;
    if (!d) return;
    const moves = d.distances.length === s.boards.length ? d.distances[s.step] : d.distances[0];
    $('standing').textContent = standingText(d, moves, st.rows, st.cols);
    [...$('dist-chart').children].forEach((bar, i) => {
      bar.classList.toggle('here', i === moves);
      bar.classList.toggle('fewer', i < moves);
    });
  }

  function showComparison(c) {
    const card = $('compare-card');
    card.hidden = false;
    const answered = c.rows.filter((r) => r.moves !== null);
    const agree = $('compare-agree');
    agree.className = `agree ${c.agree ? 'ok' : 'bad'}`;
    agree.textContent = !answered.length ? 'no algorithm answered'
      : c.agree ? `all agree: ${answered[0].moves < 0 ? 'unreachable' : `${answered[0].moves} moves`}`
        : 'the algorithms disagree!';
    const body = $('compare-table').tBodies[0];
    body.replaceChildren();
    for (const r of c.rows) {
      const tr = body.insertRow();
      const cells = [
        [r.algorithm], [r.heuristic || '-'],
        [r.moves === null ? '-' : r.moves < 0 ? 'unreachable' : r.moves, 'num'],
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
    card.scrollIntoView({ behavior: 'smooth', block: 'nearest' });
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
      chart.append(el('div', 'label', r.heuristic ? `${r.algorithm} · ${r.heuristic}` : r.algorithm));
      const track = el('div', 'track');
      for (let p = 1; p < top; p++) {
        const g = el('div', 'grid');
        g.style.left = `${frac(10 ** p) * 100}%`;
        track.append(g);
      }
      if (r.skipped) {
        const v = el('div', 'value skipped', 'not run');
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

  // ---- Playback -----------------------------------------------------------

  function stopSolution() {
    pause();
    if (st.sol) st.start = st.sol.boards[st.sol.step];
    st.sol = null;
    $('player').hidden = true;
    $('board-hint').textContent = 'Click a tile in line with the blank, or use the arrow keys. Blue tiles are home.';
  }

  function goTo(step) {
    if (!st.sol) return;
    st.sol.step = Math.max(0, Math.min(step, st.sol.boards.length - 1));
    if (st.sol.step === st.sol.boards.length - 1) pause();
    render();
  }

  const interval = () => 1000 / Number($('speed').value);

  function play() {
    if (!st.sol) return;
    if (st.sol.step === st.sol.boards.length - 1) goTo(0);
    pause();
    $('play').classList.add('play-on');
    $('play').setAttribute('aria-label', 'Pause');
    st.timer = setInterval(() => goTo(st.sol ? st.sol.step + 1 : 0), interval());
  }

  function pause() {
    clearInterval(st.timer);
    st.timer = null;
    $('play').classList.remove('play-on');
    $('play').setAttribute('aria-label', 'Play');
  }

  function setSpeed() {
    const v = Number($('speed').value);
    $('speed-label').textContent = `${v} move${v === 1 ? '' : 's'}/s`;
    document.documentElement.style.setProperty('--slide', `${Math.min(220, Math.round(700 / v))}ms`);
    if (st.timer) play();
  }

  // ---- Wiring ------------------------------------------------------------

  function init() {
    const sel = $('size');
    for (const [r, c] of SIZES) sel.append(new Option(`${r} × ${c}`, `${r}x${c}`));
    sel.addEventListener('change', () => {
      const [r, c] = sel.value.split('x').map(Number);
      newBoard(r, c);
    });
    $('goal-kind').addEventListener('change', (e) => {
      const kind = e.target.value;
      if (kind === 'custom') {
        st.goalKind = 'custom';
        $('goal-text').focus();
        return;
      }
      setGoal(layout(kind, st.rows, st.cols), kind);
    });
    for (const which of ['start', 'goal']) {
      const input = $(`${which}-text`);
      input.addEventListener('input', () => scheduleParse(which));
      input.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          request('solve');
        }
      });
    }
    $('shuffle').addEventListener('click', () => setStart(shuffled(st.goal, st.rows, st.cols)));
    $('reset').addEventListener('click', () => setStart(st.goal.slice()));
    $('solve').addEventListener('click', () => request('solve'));
    $('compare').addEventListener('click', () => request('compare'));
    $('cancel').addEventListener('click', () => st.busy && st.busy.abort());
    $('first').addEventListener('click', () => { pause(); goTo(0); });
    $('back').addEventListener('click', () => { pause(); goTo(st.sol.step - 1); });
    $('forward').addEventListener('click', () => { pause(); goTo(st.sol.step + 1); });
    $('last').addEventListener('click', () => { pause(); goTo(Infinity); });
    $('play').addEventListener('click', () => (st.timer ? pause() : play()));
    $('speed').addEventListener('input', setSpeed);
    document.addEventListener('keydown', (e) => {
      const tag = (e.target.tagName || '').toLowerCase();
      if (tag === 'input' || tag === 'select' || tag === 'textarea' || e.altKey || e.ctrlKey || e.metaKey) return;
      const dir = KEYS[e.key];
      if (dir) {
        e.preventDefault();
        const t = moved(shown(), st.cols, st.rows, dir);
        if (t) setStart(t);
      } else if (st.sol && e.key === ' ' && tag !== 'button') {
        e.preventDefault();
        if (st.timer) pause();
        else play();
      } else if (st.sol && e.key === 'Home') goTo(0);
      else if (st.sol && e.key === 'End') goTo(Infinity);
    });
    setSpeed();
    newBoard(3, 3);
  }

  init();
})();
