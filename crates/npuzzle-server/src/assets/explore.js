// npuzzle serve: the Explore view. Each algorithm's search is traced by
// the server (/api/trace) and replayed here event by event: one set of
// controls steps every pane one expanded node at a time, so that two to
// four searches race on the same board.
'use strict';

(() => {
  const { t } = window.npuzzle.i18n;
  const { moved, fmt } = window.npuzzle.boards;
  const $ = (id) => document.getElementById(id);

  // Nodes a second; the last is the whole search at once.
  const RATES = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000, Infinity];
  const TREE_MAX = 300;
  const OPEN_SHOWN = 5;
  // Most nodes stepped in one animation frame, so the page stays live.
  const FRAME_MAX = 4000;
  const OPPOSITE = { U: 'D', D: 'U', L: 'R', R: 'L' };
  const DEPTH_FIRST = new Set(['idastar', 'dfid']);
  const LAYERED = new Set(['bfs', 'bfs-hash', 'bfs-set', 'bibfs']);

  const ex = { panes: [], playing: false, frame: 0, last: 0, budget: 0, run: 0 };

  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };

  // A small board: a grid of cells, the blank empty.
  function mini(tiles, cols, cls) {
    const b = el('div', `mini${cls ? ` ${cls}` : ''}`);
    b.style.setProperty('--cols', cols);
    b.dataset.tiles = tiles.join(' ');
    for (const v of tiles) b.append(el('span', v === 0 ? 'blank' : '', v === 0 ? '' : String(v)));
    return b;
  }

  // ---- The search tree (its first few hundred nodes) ---------------------

  class Tree {
    constructor(rows, cols) {
      this.rows = rows;
      this.cols = cols;
      this.reset();
    }

    reset() {
      this.nodes = [];
      this.latest = new Map(); // side + board -> the latest node of that board
      this.current = -1;
    }

    add(key, g, parent, status, side) {
      if (this.nodes.length >= TREE_MAX) return -1;
      const id = this.nodes.length;
      this.nodes.push({ key, g, parent, status, side, kids: [] });
      if (parent >= 0) this.nodes[parent].kids.push(id);
      this.latest.set(side + key, id);
      return id;
    }

    // The node this board came from: the board one move back (`via`
    // undone), or where the search does not say, a neighbour one step
    // shallower. -2 when the parent is not in the tree.
    parentOf(e) {
      const side = e.side || '';
      const back = (d) => moved(e.tiles, this.cols, this.rows, d);
      if (e.via) {
        const p = back(OPPOSITE[e.via]);
        const id = p && this.latest.get(side + p.join(' '));
        if (id !== undefined && id !== null) return id;
      }
      if (e.g === 0) return -1;
      for (const d of 'UDLR') {
        const p = back(d);
        const id = p && this.latest.get(side + p.join(' '));
        if (id !== undefined && id !== null && this.nodes[id].g === e.g - 1) return id;
      }
      return -2;
    }

    expand(e) {
      const key = e.tiles.join(' ');
      const side = e.side || '';
      const known = this.latest.get(side + key);
      let id = -1;
      if (known !== undefined && this.nodes[known].status === 'open' && this.nodes[known].g === e.g) id = known;
      else {
        const p = this.parentOf(e);
        if (p !== -2) id = this.add(key, e.g, p, 'closed', side);
      }
      if (id >= 0) this.nodes[id].status = 'closed';
      this.current = id;
    }

    child(e) {
      if (this.current >= 0) this.add(e.tiles.join(' '), e.g, this.current, 'open', e.side || '');
    }
  }

  // Leaves left to right in depth-first order, parents over their children.
  function drawTree(svg, tree, onPath) {
    const n = tree.nodes;
    const x = new Array(n.length);
    const y = new Array(n.length);
    let leaves = 0, depth = 0;
    const place = (id, d) => {
      y[id] = d;
      depth = Math.max(depth, d);
      const kids = n[id].kids;
      if (!kids.length) {
        x[id] = leaves++;
        return;
      }
      kids.forEach((k) => place(k, d + 1));
      x[id] = (x[kids[0]] + x[kids[kids.length - 1]]) / 2;
    };
    n.forEach((node, id) => { if (node.parent < 0) place(id, 0); });
    // Rows spread to fill the box (about 2.4 wide to 1 high).
    const W = 14, H = Math.max(20, Math.min(60, (leaves * W) / 2.4 / Math.max(1, depth)));
    const px = (id) => x[id] * W + W / 2, py = (id) => y[id] * H + 8;
    svg.setAttribute('viewBox', `0 0 ${Math.max(1, leaves) * W} ${depth * H + 16}`);
    const parts = [];
    n.forEach((node, id) => {
      if (node.parent >= 0) parts.push(`<line x1="${px(node.parent)}" y1="${py(node.parent)}" x2="${px(id)}" y2="${py(id)}"/>`);
    });
    n.forEach((node, id) => {
      const cls = id === tree.current ? 'current' : onPath(node) ? 'solution' : node.status;
      parts.push(`<circle class="${cls}" cx="${px(id)}" cy="${py(id)}" r="5"/>`);
    });
    svg.innerHTML = parts.join('');
    svg.dataset.nodes = n.length;
  }

  // Vertical bars with their labels beneath.
  function drawBars(box, items) {
    box.replaceChildren();
    const top = Math.max(1, ...items.map((i) => i.value));
    // Values over the bars while they fit, in thousands past 9,999.
    const short = (n) => (items.length > 24 ? '' : n >= 10000 ? `${Math.round(n / 1000)}k` : fmt(n));
    for (const it of items) {
      const col = el('div', `col${it.cls ? ` ${it.cls}` : ''}`);
      const bar = el('div', 'bar');
      bar.style.height = `${Math.max(2, (100 * it.value) / top)}%`;
      col.title = `${it.label}: ${fmt(it.value)}`;
      col.append(el('div', 'v', short(it.value)), bar, el('div', 'l', it.label));
      box.append(col);
    }
  }

  // ---- One pane: one algorithm's search, replayed ------------------------

  class Pane {
    constructor(algo, data, error) {
      this.algo = algo;
      this.data = data;
      this.error = error;
      this.root = this.build();
      this.reset();
    }

    reset() {
      const d = this.data;
      this.i = 0;
      this.expanded = 0;
      this.generated = 0;
      this.closed = 0;
      this.closedKeys = new Set();
      this.open = new Map();
      this.openSize = null;
      this.maxOpen = null;
      this.sawGenerated = false;
      this.sawIterStart = false;
      this.current = null;
      this.byF = new Map();
      this.layers = { forward: [], backward: [] };
      this.front = {}; // bidirectional BFS: each side's open list
      this.iterations = [];
      this.iterExpanded = 0;
      this.bound = null;
      this.meet = null;
      this.done = !d;
      this.stopReplay();
      this.replayAt = null;
      this.tree = d ? new Tree(d.rows, d.cols) : null;
    }

    get left() {
      return !this.done;
    }

    // Applies events up to and including the next expanded node.
    step() {
      if (this.done) return;
      const ev = this.data.events;
      while (this.i < ev.length) {
        const e = ev[this.i++];
        this.apply(e);
        if (e.event === 'expanded' && this.i < ev.length) return;
      }
      this.finish();
    }

    apply(e) {
      const side = e.side || 'forward';
      const key = `${side} ${(e.tiles || []).join(' ')}`;
      switch (e.event) {
        case 'expanded': {
          // The goal, come to be expanded, is not counted.
          if (!e.goal) this.expanded++;
          if (DEPTH_FIRST.has(this.algo) && e.g === 0 && this.tree.nodes.length && !this.sawIterStart) this.tree.reset();
          this.current = e;
          if (e.h !== undefined && e.h !== null) this.byF.set(e.g + e.h, (this.byF.get(e.g + e.h) || 0) + 1);
          this.open.delete(key);
          if (!DEPTH_FIRST.has(this.algo)) this.closedKeys.add(key);
          this.closed = e.closed !== undefined ? e.closed : this.closedKeys.size;
          if (e.open !== undefined) this.openSize = e.open;
          if (e.side && e.open !== undefined) this.front[e.side] = e.open;
          else if (this.sawGenerated) this.openSize = this.open.size;
          if (this.openSize !== null) this.maxOpen = Math.max(this.maxOpen || 0, this.openSize);
          this.iterExpanded++;
          this.tree.expand(e);
          break;
        }
        case 'generated':
          this.generated++;
          this.sawGenerated = true;
          if (e.fate === 'queued' && !DEPTH_FIRST.has(this.algo)) {
            this.open.set(key, e);
            this.tree.child(e);
          }
          break;
        case 'layer': {
          // Before the core said which side a layer is of, the second
          // layer of a depth is the backward search's.
          const s = e.side || (this.layers.forward.some((l) => l.depth === e.depth) ? 'backward' : 'forward');
          this.layers[s].push({ depth: e.depth, states: e.states });
          break;
        }
        case 'iteration_started':
          this.sawIterStart = true;
          this.bound = e.bound;
          this.iterExpanded = 0;
          this.tree.reset();
          break;
        case 'iteration':
          this.iterations.push({ bound: e.bound, expanded: e.expanded });
          this.bound = e.next !== undefined ? e.next : e.bound;
          this.iterExpanded = 0;
          break;
        case 'met':
          this.meet = e;
          break;
        default:
          break;
      }
    }

    // The end: the counters jump to the search's totals (the events may
    // have been capped), the charts to its own summary.
    finish() {
      if (this.done) return;
      const d = this.data;
      this.done = true;
      this.i = d.events.length;
      this.expanded = d.expanded;
      this.generated = d.generated;
      if (d.max_open !== undefined && d.max_open !== null) this.maxOpen = Math.max(this.maxOpen || 0, d.max_open);
      if (d.events_dropped > 0) {
        // The last events recorded are not the end: what is known is that
        // every node expanded was closed.
        this.closed = d.expanded;
        this.openSize = null;
      }
      if (d.meet) this.meet = { tiles: d.meet.board, forward: d.meet.forward, backward: d.meet.backward };
    }

    // Whether a tree node lies on the answer's path (once it is known).
    onPath(node) {
      const d = this.data;
      if (!this.done || !this.pathIndex) return false;
      const at = this.pathIndex.get(node.key);
      if (at === undefined) return false;
      return node.side === 'backward' ? at === d.moves - node.g : at === node.g;
    }

    pathBoards() {
      const d = this.data;
      const boards = [d.start];
      for (const m of d.path || '') boards.push(moved(boards[boards.length - 1], d.cols, d.rows, m));
      return boards;
    }

    build() {
      const root = el('article', 'card pane');
      root.dataset.algo = this.algo;
      root.dataset.testid = `pane-${this.algo}`;
      root.innerHTML = `
        <h3 class="pane-title"></h3>
        <p class="error pane-error" hidden></p>
        <div class="pane-body">
          <div class="pane-top">
            <figure class="pane-current"><div class="cur"></div><figcaption></figcaption></figure>
            <dl class="counters"></dl>
          </div>
          <p class="note capped" data-testid="ex-capped" hidden></p>
          <div class="done" data-testid="ex-done" hidden>
            <p><span class="done-text"></span></p>
            <div class="path" data-testid="ex-path"></div>
            <button type="button" class="replay"></button>
          </div>
          <h4 class="open-title"></h4><div class="openlist"></div>
          <div class="bibfs" hidden><h4 class="bi-title"></h4><div class="frontiers"></div><div class="meet"></div></div>
          <h4 class="tree-title"></h4>
          <div class="legend"></div>
          <svg class="tree" data-testid="ex-tree" preserveAspectRatio="xMidYMin meet"></svg>
          <p class="hint tree-empty" hidden></p>
          <h4 class="chart-title"></h4><div class="bars chart-main"></div><div class="bars chart-back" hidden></div>
        </div>`;
      root.querySelector('.replay').addEventListener('click', () => this.startReplay());
      return root;
    }

    q(css) {
      return this.root.querySelector(css);
    }

    render() {
      const d = this.data;
      const title = d ? `${t(`algo.${d.algorithm}`)}${d.heuristic ? ` · ${t(`h.${d.heuristic}`)}` : ''}` : t(`algo.${this.algo}`);
      this.q('.pane-title').textContent = title;
      this.q('.pane-error').hidden = !this.error;
      this.q('.pane-error').textContent = this.error ? t('ex.error', { algo: t(`algo.${this.algo}`), msg: this.error }) : '';
      this.q('.pane-body').hidden = !d;
      if (!d) return;
      this.renderCurrent();
      this.renderCounters();
      this.renderDone();
      this.renderOpen();
      this.renderBibfs();
      this.q('.tree-title').textContent = t('ex.tree', { n: TREE_MAX });
      this.q('.tree-empty').textContent = t('ex.noNodes');
      this.q('.legend').innerHTML = ['open', 'closed', 'current', 'solution']
        .map((k) => `<span class="key ${k}"></span>${t(`ex.legend.${k}`)}`).join(' ');
      drawTree(this.q('.tree'), this.tree, (n) => this.onPath(n));
      this.q('.tree-empty').hidden = !(this.done && !this.tree.nodes.length);
      this.renderChart();
    }

    renderCurrent() {
      const d = this.data;
      const box = this.q('.cur');
      const cap = this.q('figcaption');
      if (this.replayAt !== null) {
        const boards = this.pathBoards();
        box.replaceChildren(mini(boards[this.replayAt], d.cols, 'big'));
        cap.textContent = t('ex.replayStep', { i: this.replayAt, n: boards.length - 1 });
        return;
      }
      if (this.done && d.moves !== null && d.moves !== undefined) {
        box.replaceChildren(mini(d.goal, d.cols, 'big'));
        cap.textContent = t('goal');
        return;
      }
      const c = this.current;
      box.replaceChildren(mini(c ? c.tiles : d.start, d.cols, 'big'));
      let words = `${t('ex.current')}: `;
      if (!c) words = t('ex.root');
      else if (c.via) words += t('ex.via', { d: c.via });
      else if (c.g === 0) words += t(c.side === 'backward' ? 'ex.rootBack' : 'ex.root');
      else words += `g = ${c.g}`;
      if (c && Array.isArray(c.parts)) {
        words += ` · ${t('ex.parts', { parts: `${c.parts.join(' + ')} = ${c.parts.reduce((a, b) => a + b, 0)}` })}`;
      }
      cap.textContent = words;
    }

    renderCounters() {
      const c = this.current;
      const df = DEPTH_FIRST.has(this.algo);
      const dash = '—';
      const rows = [
        ['expanded', fmt(this.expanded)],
        ['generated', this.sawGenerated || this.done ? fmt(this.generated) : dash],
        ['open', df || this.openSize === null ? dash : fmt(this.openSize)],
        ['closed', df ? dash : fmt(this.closed)],
        ['maxOpen', df || this.maxOpen === null ? dash : fmt(this.maxOpen)],
        df ? ['bound', this.bound === null ? dash : `${this.bound}${c ? ` (g ${c.g})` : ''}`]
          : ['depth', this.depthText(c)],
      ];
      const dl = this.q('.counters');
      dl.replaceChildren();
      for (const [k, v] of rows) {
        const dd = el('dd', '', v);
        dd.dataset.testid = `ex-${k}`;
        dl.append(el('dt', '', t(`ex.${k}`)), dd);
      }
    }

    depthText(c) {
      const d = this.data;
      if (this.done && typeof d.moves === 'number') return String(d.moves);
      if (!c) return '0';
      return c.h !== undefined ? `${c.g} (h ${c.h}, f ${c.g + c.h})` : String(c.g);
    }

    renderDone() {
      const d = this.data;
      const capped = d.events_dropped > 0;
      const note = this.q('.capped');
      note.hidden = !capped;
      note.textContent = capped ? t('ex.capped', { n: fmt(d.events.length), m: fmt(d.events.length + d.events_dropped) }) : '';
      const box = this.q('.done');
      box.hidden = !this.done;
      if (!this.done) return;
      const txt = d.moves === null || d.moves === undefined ? t('ex.doneUnreachable')
        : t('ex.done', { n: d.moves }) + (d.optimal === false ? t('ex.notOptimal') : '');
      const span = this.q('.done-text');
      span.textContent = txt;
      span.dataset.moves = d.moves === null || d.moves === undefined ? '' : d.moves;
      this.q('.path').textContent = d.path || '';
      this.q('.replay').textContent = t('ex.replay');
      this.q('.replay').hidden = !d.path;
      if (!this.pathIndex && d.path !== undefined) {
        this.pathIndex = new Map(this.pathBoards().map((b, i) => [b.join(' '), i]));
      }
    }

    renderOpen() {
      const box = this.q('.openlist');
      this.q('.open-title').textContent = t('ex.openList');
      box.replaceChildren();
      if (DEPTH_FIRST.has(this.algo)) {
        box.append(el('p', 'hint', t('ex.idaOpen')));
        return;
      }
      if (!this.sawGenerated) {
        box.append(el('p', 'hint', t('ex.noOpen')));
        return;
      }
      if (!this.open.size) {
        box.append(el('p', 'hint', t('ex.emptyOpen')));
        return;
      }
      for (const e of bestOpen(this.open, LAYERED.has(this.algo))) {
        const item = el('div', 'entry');
        const f = e.h !== undefined ? e.g + e.h : null;
        item.append(mini(e.tiles, this.data.cols), el('div', 'ghf', f === null ? `g ${e.g}` : `g ${e.g} h ${e.h} f ${f}`));
        box.append(item);
      }
    }

    renderBibfs() {
      const box = this.q('.bibfs');
      box.hidden = this.algo !== 'bibfs';
      if (box.hidden) return;
      this.q('.bi-title').textContent = t('ex.frontiers');
      const last = (s) => {
        if (this.front[s] !== undefined) return this.front[s];
        const l = this.layers[s];
        return l.length ? l[l.length - 1].states : 1;
      };
      const fr = this.q('.frontiers');
      fr.replaceChildren(el('div', 'fwd', `${t('ex.forward')}: ${fmt(last('forward'))}`),
        el('div', 'bwd', `${t('ex.backward')}: ${fmt(last('backward'))}`));
      const meet = this.q('.meet');
      meet.replaceChildren();
      if (this.meet) {
        meet.append(mini(this.meet.tiles, this.data.cols), el('p', '', t('ex.meet', { f: this.meet.forward, b: this.meet.backward })));
      }
    }

    renderChart() {
      const d = this.data;
      const main = this.q('.chart-main');
      const back = this.q('.chart-back');
      back.hidden = true;
      const title = this.q('.chart-title');
      if (LAYERED.has(this.algo)) {
        const summary = (l) => (this.done && l && l.length ? l.map((states, depth) => ({ depth, states })) : null);
        const fwd = summary(this.algo === 'bibfs' ? d.forward_layers : d.layers) || this.layers.forward;
        const bwd = summary(d.backward_layers) || this.layers.backward;
        title.textContent = t('ex.chart.layers');
        drawBars(main, fwd.map((l) => ({ label: String(l.depth), value: l.states, cls: 'fwd' })));
        if (this.algo === 'bibfs') {
          back.hidden = false;
          drawBars(back, bwd.map((l) => ({ label: String(l.depth), value: l.states, cls: 'bwd' })));
        }
      } else if (DEPTH_FIRST.has(this.algo)) {
        title.textContent = t('ex.chart.iter');
        const its = (this.done && d.iterations ? d.iterations : this.iterations)
          .map((it) => ({ label: String(it.bound), value: it.expanded }));
        if (!this.done && this.bound !== null) its.push({ label: String(this.bound), value: this.iterExpanded, cls: 'live' });
        drawBars(main, its);
      } else {
        title.textContent = t('ex.chart.f');
        const byF = this.done && d.expanded_by_f ? d.expanded_by_f : [...this.byF].sort((a, b) => a[0] - b[0]);
        drawBars(main, byF.map(([f, n]) => ({ label: String(f), value: n })));
      }
    }

    startReplay() {
      this.stopReplay();
      const n = (this.data.path || '').length;
      this.replayAt = 0;
      this.render();
      this.replayTimer = setInterval(() => {
        if (this.replayAt >= n) {
          this.stopReplay();
          return;
        }
        this.replayAt++;
        this.render();
      }, 400);
    }

    stopReplay() {
      clearInterval(this.replayTimer);
      this.replayTimer = null;
    }
  }

  // The open list's first entries: by f then h (breadth-first: by depth,
  // first in first out), found in one pass.
  function bestOpen(open, fifo) {
    const rank = fifo ? (e) => [e.g, 0] : (e) => [e.g + (e.h || 0), e.h || 0];
    const best = [];
    for (const e of open.values()) {
      const r = rank(e);
      let i = best.length;
      while (i > 0 && (best[i - 1].r[0] > r[0] || (best[i - 1].r[0] === r[0] && best[i - 1].r[1] > r[1]))) i--;
      if (i < OPEN_SHOWN) {
        best.splice(i, 0, { e, r });
        if (best.length > OPEN_SHOWN) best.pop();
      }
    }
    return best.map((b) => b.e);
  }

  // ---- Controls -----------------------------------------------------------

  const chosen = () => [...document.querySelectorAll('.ex-algos input:checked')].map((i) => i.value);

  function showError(msg) {
    $('ex-error').textContent = msg;
    $('ex-error').hidden = !msg;
  }

  async function run() {
    const algos = [...new Set(chosen())];
    if (algos.length < 1 || algos.length > 4) {
      showError(t('ex.pickAlgo'));
      return;
    }
    showError('');
    pause();
    const runId = ++ex.run;
    ex.panes.forEach((p) => p.stopReplay());
    ex.panes = [];
    $('ex-panes').replaceChildren();
    setControls(false);
    $('ex-run').disabled = true;
    const body = { start: $('ex-start').value, goal: $('ex-goal').value, heuristic: $('ex-heuristic').value };
    const panes = [];
    // One after another: the server runs at most one heavy search a core.
    for (const [i, algo] of algos.entries()) {
      $('ex-status').textContent = t('ex.fetching', { algo: t(`algo.${algo}`), i: i + 1, n: algos.length });
      let data = null, error = null;
      try {
        const res = await fetch('/api/trace', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...body, algo }),
        });
        const answer = await res.json();
        if (res.ok) data = answer;
        else error = answer.error || `HTTP ${res.status}`;
      } catch (e) {
        error = e.message;
      }
      if (runId !== ex.run) return;
      panes.push(new Pane(algo, data, error));
    }
    ex.panes = panes;
    const box = $('ex-panes');
    box.dataset.count = panes.length;
    panes.forEach((p) => box.append(p.root));
    $('ex-status').textContent = '';
    $('ex-run').disabled = false;
    setControls(true);
    renderAll();
  }

  function setControls(on) {
    for (const id of ['ex-restart', 'ex-step', 'ex-play', 'ex-end']) $(id).disabled = !on;
  }

  const anyLeft = () => ex.panes.some((p) => p.left);

  function stepAll() {
    ex.panes.forEach((p) => p.step());
  }

  function renderAll() {
    ex.panes.forEach((p) => p.render());
    $('ex-play').textContent = t(ex.playing ? 'ex.pause' : 'ex.play');
    $('ex-play').classList.toggle('play-on', ex.playing);
    $('ex-panes').dataset.finished = ex.panes.length && !anyLeft() ? 'yes' : 'no';
  }

  const rate = () => RATES[Number($('ex-speed').value)];

  function tick(now) {
    if (!ex.playing) return;
    const r = rate();
    ex.budget += r === Infinity ? Infinity : (r * (now - ex.last)) / 1000;
    ex.last = now;
    let n = 0;
    while (ex.budget >= 1 && anyLeft() && n < FRAME_MAX) {
      stepAll();
      ex.budget--;
      n++;
    }
    if (r === Infinity) while (anyLeft()) stepAll();
    if (!anyLeft()) ex.playing = false;
    if (n || !ex.playing) renderAll();
    if (ex.playing) ex.frame = requestAnimationFrame(tick);
  }

  function play() {
    if (!anyLeft()) return;
    ex.playing = true;
    ex.panes.forEach((p) => { p.stopReplay(); p.replayAt = null; });
    // The first node at once, then at the chosen rate.
    ex.budget = 1;
    ex.last = performance.now();
    cancelAnimationFrame(ex.frame);
    ex.frame = requestAnimationFrame(tick);
    renderAll();
  }

  function pause() {
    ex.playing = false;
    cancelAnimationFrame(ex.frame);
    renderAll();
  }

  function setSpeed() {
    const r = rate();
    $('ex-speed-label').textContent = r === Infinity ? t('ex.all') : t('ex.rate', { n: r });
  }

  function setExample() {
    const v = $('ex-example').value;
    if (v === 'solve') {
      const s = window.npuzzle.solver && window.npuzzle.solver.current();
      if (!s) return;
      const rows = (tiles) => Array.from({ length: s.rows }, (_, r) => tiles.slice(r * s.cols, (r + 1) * s.cols).join(' ')).join(' / ');
      $('ex-start').value = rows(s.start);
      $('ex-goal').value = rows(s.goal);
      return;
    }
    const [start, goal] = v.split('|');
    $('ex-start').value = start;
    $('ex-goal').value = goal;
  }

  function showView(which) {
    const explore = which === 'explore';
    $('explore-view').hidden = !explore;
    $('solve-view').hidden = explore;
    $('tab-explore').classList.toggle('on', explore);
    $('tab-solve').classList.toggle('on', !explore);
    $('tab-explore').setAttribute('aria-selected', String(explore));
    $('tab-solve').setAttribute('aria-selected', String(!explore));
    if (explore && $('ex-example').value === 'solve') setExample();
    if (location.hash !== (explore ? '#explore' : '')) history.replaceState(null, '', explore ? '#explore' : location.pathname + location.search);
  }

  function init() {
    $('tab-solve').addEventListener('click', () => showView('solve'));
    $('tab-explore').addEventListener('click', () => showView('explore'));
    $('ex-example').addEventListener('change', setExample);
    $('ex-run').addEventListener('click', run);
    $('ex-step').addEventListener('click', () => {
      pause();
      ex.panes.forEach((p) => { p.stopReplay(); p.replayAt = null; });
      stepAll();
      renderAll();
    });
    $('ex-play').addEventListener('click', () => (ex.playing ? pause() : play()));
    $('ex-end').addEventListener('click', () => {
      pause();
      while (anyLeft()) stepAll();
      renderAll();
    });
    $('ex-restart').addEventListener('click', () => {
      pause();
      ex.panes.forEach((p) => p.reset());
      renderAll();
    });
    $('ex-speed').addEventListener('input', setSpeed);
    for (const [e, f] of [['keydown', (ev) => { if (ev.key === 'Enter') run(); }]]) {
      $('ex-start').addEventListener(e, f);
      $('ex-goal').addEventListener(e, f);
    }
    window.npuzzle.i18n.onChange(() => { setSpeed(); renderAll(); });
    setExample();
    setSpeed();
    if (location.hash === '#explore') showView('explore');
  }

  init();
})();
