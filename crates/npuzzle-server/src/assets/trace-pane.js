// npuzzle serve: one pane of the Explore view: one algorithm's traced
// search (/api/trace), replayed event by event, with its counters, open
// list, tree and chart.
'use strict';

(() => {
  const { t } = window.npuzzle.i18n;
  const { moved, fmt } = window.npuzzle.boards;
  const { el, mini, Tree, drawTree, drawBars, TREE_MAX } = window.npuzzle.traceViews;
  const OPEN_SHOWN = 5;
  const DEPTH_FIRST = new Set(['idastar', 'dfid']);
  const LAYERED = new Set(['bfs', 'bfs-hash', 'bfs-set', 'bibfs']);

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
      const { name } = window.npuzzle.i18n;
      const title = d ? `${name('algo', d.algorithm)}${d.heuristic ? ` · ${name('h', d.heuristic)}` : ''}` : name('algo', this.algo);
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
      if (this.done && this.data.events_dropped > 0) box.append(el('p', 'hint', t('ex.openLast')));
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

  window.npuzzle.Pane = Pane;
})();
