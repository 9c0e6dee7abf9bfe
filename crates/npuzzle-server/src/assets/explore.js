// npuzzle serve: the Explore view. Each algorithm's search is traced by
// the server (/api/trace) and replayed here event by event: one set of
// controls steps every pane one expanded node at a time, so that two to
// four searches race on the same board.
'use strict';

(() => {
  const { t } = window.npuzzle.i18n;
  const { Pane } = window.npuzzle;
  const $ = (id) => document.getElementById(id);

  // Nodes a second; the last is the whole search at once.
  const RATES = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000, Infinity];
  // Most nodes stepped in one animation frame, so the page stays live.
  const FRAME_MAX = 4000;

  const ex = { panes: [], playing: false, frame: 0, last: 0, budget: 0, run: 0 };

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

  const VIEWS = ['solve', 'explore', 'play'];

  function showView(which) {
    for (const v of VIEWS) {
      $(`${v}-view`).hidden = v !== which;
      $(`tab-${v}`).classList.toggle('on', v === which);
      $(`tab-${v}`).setAttribute('aria-selected', String(v === which));
    }
    if (which === 'explore' && $('ex-example').value === 'solve') setExample();
    const hash = which === 'solve' ? '' : `#${which}`;
    if (location.hash !== hash) history.replaceState(null, '', hash || location.pathname + location.search);
    document.dispatchEvent(new CustomEvent('npuzzle:view', { detail: which }));
  }

  function init() {
    $('tab-solve').addEventListener('click', () => showView('solve'));
    $('tab-explore').addEventListener('click', () => showView('explore'));
    $('tab-play').addEventListener('click', () => showView('play'));
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
    if (location.hash === '#play') showView('play');
  }

  init();
})();
