// npuzzle serve: the page's script. Plain JavaScript, no build step, no
// network but this server's own /api.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);
  const { t } = window.npuzzle.i18n;
  const { DIRS, range, layout, moved, boardText, whyUnreachable, shuffled, fmt, secs } = window.npuzzle.boards;

  const SIZES = [
    [2, 2], [2, 3], [3, 2], [2, 4], [4, 2], [3, 3], [2, 5], [5, 2],
    [3, 4], [4, 3], [3, 5], [5, 3], [4, 4], [4, 5], [5, 4], [5, 5],
    // beyond 5x5 the server answers with the fast solver (not optimal)
    [6, 6], [7, 7], [8, 8], [9, 9], [10, 10],
  ];
  const KEYS = { ArrowUp: 'U', ArrowDown: 'D', ArrowLeft: 'L', ArrowRight: 'R' };

  const st = {
    rows: 3,
    cols: 3,
    start: [],
    goal: [],
    goalKind: 'blank-last',
    sol: null, // { boards, path, step }
    solved: null, // the last /api/solve answer, to write again in another language
    compared: null, // the last /api/compare answer
    timer: null,
    busy: null, // AbortController of the request in flight
    parseTimer: null,
    parseSeq: 0,
  };

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
    $('board-caption').textContent = s ? t('caption.move', { step: s.step, n: s.boards.length - 1 }) : t('start');
    $('board').setAttribute('aria-label', s ? t('aria.after', { step: s.step }) : t('aria.start'));
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
  const pageHint = (msg) => (msg.includes('cannot infer the board size') ? msg + t('hint.size') : msg);

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
      if (seq === st.parseSeq) showError(t('server.unreachable', { msg: e.message }));
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
    const verb = () => t(kind === 'solve' ? 'solving' : 'comparing');
    const tick = () => {
      $('status-text').textContent = t('status.busy', { verb: verb(), secs: ((performance.now() - t0) / 1000).toFixed(1) });
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
      else {
        st.compared = data;
        window.npuzzle.compare.show(data, true);
      }
    } catch (e) {
      showError(e.name === 'AbortError' ? t('cancelled', { verb: verb(), kind }) : e.message);
    } finally {
      clearInterval(clock);
      if (st.busy === ctl) {
        st.busy = null;
        $('status').hidden = true;
        $('solve').disabled = $('compare').disabled = false;
      }
    }
  }


  function showSolution(r) {
    applyParsed(r);
    st.solved = r;
    $('result').hidden = false;
    $('result').classList.toggle('unreachable', !r.solvable);
    solutionText(r);
    if (!r.solvable) {
      $('standing-card').hidden = true;
      stopSolution();
      render();
      return;
    }
    const ms = $('move-string');
    ms.replaceChildren();
    [...(r.path || '')].forEach((d, i) => {
      const m = document.createElement('span');
      m.className = 'm';
      m.textContent = d;
      m.addEventListener('click', () => goTo(i + 1));
      ms.append(m);
    });
    if (!r.path) {
      const none = document.createElement('span');
      none.className = 'none';
      ms.append(none);
    }
    st.sol = { boards: r.boards, path: r.path || '', step: 0, dist: r.distribution };
    drawDistribution(r.distribution);
    $('player').hidden = false;
    moveTitles();
    render();
  }

  // The answer's words, written again when the language changes.
  function solutionText(r) {
    const { name } = window.npuzzle.i18n;
    $('algorithm').textContent = r.heuristic ? `${name('algo', r.algorithm)} (${name('h', r.heuristic)})` : name('algo', r.algorithm);
    $('expanded').textContent = fmt(r.stats.expanded);
    $('seconds').textContent = secs(r.stats.seconds);
    if (!r.solvable) {
      $('moves').textContent = t('unreachable');
      $('moves-unit').textContent = '';
      $('reason').textContent = whyUnreachable(r.start, r.goal, r.cols);
      $('reason').hidden = false;
      return;
    }
    $('moves').textContent = r.moves;
    $('moves-unit').textContent = r.optimal ? t('moves.fewest', { n: r.moves })
      : t('moves.bound', { n: r.moves, lb: r.lower_bound, ratio: r.ratio.toFixed(2) });
    $('reason').hidden = r.moves !== 0;
    $('reason').textContent = t('already.goal');
  }

  function moveTitles() {
    $('move-string').querySelectorAll('.m').forEach((m, i) => {
      m.title = t('move.title', { i: i + 1, d: m.textContent });
    });
    const none = $('move-string').querySelector('.none');
    if (none) none.textContent = t('no.moves');
    $('board-hint').textContent = t(st.sol ? 'hint.play' : 'hint.edit');
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
      bar.title = t('dist.bar', { count: fmt(count), c: count, m: moves });
      chart.append(bar);
    });
  }

  function puzzleName(rows, cols) {
    return rows === cols ? t('puzzle.square', { n: rows * cols - 1 }) : t('puzzle.rect', { rows, cols });
  }

  // "This 8-puzzle position needs 24 moves; 51% of all 181,440 need fewer."
  function standingText(d, moves, rows, cols) {
    const fewer = d.histogram.slice(0, moves).reduce((a, b) => a + b, 0);
    const all = d.positions;
    const name = puzzleName(rows, cols);
    const hardest = d.histogram.length - 1;
    const needs = moves === 0 ? t('stand.goal') : t('stand.needs', { m: moves });
    let share;
    if (fewer === 0) share = t('stand.none');
    else if (all - fewer <= 1000) share = t('stand.allBut', { k: fmt(all - fewer), all: fmt(all) });
    else if (fewer <= 1000) share = t('stand.only', { k: fmt(fewer), all: fmt(all) });
    else share = t('stand.pct', { pct: Math.round((100 * fewer) / all), all: fmt(all) });
    const tail = moves === hardest ? t('stand.hardest') : t('stand.max', { m: hardest });
    return t('stand.text', { name, needs, share, tail });
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

  // ---- Playback -----------------------------------------------------------

  function stopSolution() {
    pause();
    if (st.sol) st.start = st.sol.boards[st.sol.step];
    st.sol = null;
    $('player').hidden = true;
    $('board-hint').textContent = t('hint.edit');
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
    $('play').setAttribute('aria-label', t('btn.pause'));
    st.timer = setInterval(() => goTo(st.sol ? st.sol.step + 1 : 0), interval());
  }

  function pause() {
    clearInterval(st.timer);
    st.timer = null;
    $('play').classList.remove('play-on');
    $('play').setAttribute('aria-label', t('btn.play'));
  }

  function setSpeed() {
    const v = Number($('speed').value);
    $('speed-label').textContent = t('speed.moves', { n: v });
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
      if ($('solve-view').hidden) return; // the Explore tab has its own board
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
    window.npuzzle.i18n.onChange(relabel);
    window.npuzzle.solver = { current: () => ({ start: st.start, goal: st.goal, rows: st.rows, cols: st.cols }) };
  }

  // Everything this script wrote, in the language just chosen.
  function relabel() {
    if (st.solved && !$('result').hidden) solutionText(st.solved);
    if (st.compared && !$('compare-card').hidden) window.npuzzle.compare.show(st.compared, false);
    moveTitles();
    setSpeed();
    if (st.timer) $('play').setAttribute('aria-label', t('btn.pause'));
    render();
  }

  init();
})();
