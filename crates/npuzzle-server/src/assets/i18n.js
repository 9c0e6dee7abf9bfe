// npuzzle serve: the page's words in English and Simplified Chinese. The
// language comes from ?lang=, else the switch's remembered choice, else
// the browser's languages. Static text is marked in the HTML with
// data-i18n (text), data-i18n-html (trusted markup from this file),
// data-i18n-title, data-i18n-aria and data-i18n-placeholder.
'use strict';

(() => {
  const s = (n) => (n === 1 ? '' : 's');
  const EN = {
    title: 'npuzzle: sliding-tile solver',
    tagline: 'Set up a sliding-tile puzzle, find the fewest moves, watch them play out.',
    'tab.solve': 'Solve',
    'tab.explore': 'Explore',
    'lang.label': 'Language',
    'aria.board': 'Board',
    'aria.setup': 'Set up and solve',
    'aria.goalBoard': 'Goal board',
    'aria.moves': 'Moves of the blank',
    start: 'Start',
    goal: 'Goal',
    'hint.edit': 'Click a tile in line with the blank, or use the arrow keys. Blue tiles are home.',
    'hint.play': 'Step through the solution; blue tiles are home. Editing the board starts over from here.',
    'start.label': 'Start, in any format (Ctrl+Enter solves)',
    'start.placeholder': '2 8 3 1 6 4 7 0 5  or  2 8 3 / 1 6 4 / 7 0 5',
    'goal.label': 'Goal, in any format',
    'goal.placeholder': '1 2 3 8 0 4 7 6 5  or  spiral',
    'btn.first': 'Back to the start',
    'btn.first.title': 'Back to the start (Home)',
    'btn.back': 'Step back',
    'btn.play': 'Play',
    'btn.pause': 'Pause',
    'btn.play.title': 'Play / pause (space)',
    'btn.forward': 'Step forward',
    'btn.last': 'Jump to the end',
    'btn.last.title': 'Jump to the end (End)',
    speed: 'Speed',
    'speed.moves': (p) => `${p.n} move${s(p.n)}/s`,
    size: 'Size',
    algorithm: 'Algorithm',
    heuristic: 'Heuristic',
    'goal.blank-last': 'blank last',
    'goal.blank-first': 'blank first',
    'goal.spiral': 'spiral',
    'goal.custom': 'custom',
    'algo.auto': 'auto',
    'algo.table': 'table',
    'algo.bfs': 'BFS',
    'algo.bfs-hash': 'BFS (hash set)',
    'algo.bfs-set': 'BFS (ordered set)',
    'algo.bibfs': 'bidirectional BFS',
    'algo.astar': 'A*',
    'algo.idastar': 'IDA*',
    'algo.wastar': 'weighted A* (not optimal)',
    'algo.greedy': 'greedy best-first (not optimal)',
    'algo.dfid': 'depth-first iterative deepening',
    'algo.anytime': 'anytime (not always optimal)',
    'algo.fast': 'fast (not optimal)',
    'h.auto': 'auto',
    'h.misplaced': 'misplaced tiles',
    'h.manhattan': 'Manhattan',
    'h.linear-conflict': 'linear conflict',
    'h.pdb': 'pattern database',
    'btn.shuffle': 'Shuffle',
    'btn.shuffle.title': 'A random start the goal can be reached from',
    'btn.reset': 'Reset',
    'btn.reset.title': 'Set the start to the goal',
    'btn.solve': 'Solve',
    'btn.compare': 'Compare',
    'btn.cancel': 'Cancel',
    solving: 'Solving',
    comparing: 'Comparing',
    'status.busy': (p) => `${p.verb}… ${p.secs} s`,
    cancelled: (p) => `${p.verb} cancelled.`,
    moves: 'moves',
    'facts.algorithm': 'Algorithm',
    'facts.expanded': 'Nodes expanded',
    'facts.time': 'Search time',
    unreachable: 'Unreachable',
    'moves.fewest': (p) => `${p.n === 1 ? 'move' : 'moves'} (the fewest)`,
    'moves.bound': (p) => `${p.n === 1 ? 'move' : 'moves'} (not proven the fewest: at least ${p.lb} are needed, so at most ${p.ratio}× the fewest)`,
    'already.goal': 'The start is already the goal.',
    'move.title': (p) => `Move ${p.i}: the blank goes ${{ U: 'up', D: 'down', L: 'left', R: 'right' }[p.d]}`,
    'no.moves': 'no moves needed',
    'caption.move': (p) => `Move ${p.step} of ${p.n}`,
    'aria.after': (p) => `Board after move ${p.step}`,
    'aria.start': 'Start board',
    'server.unreachable': (p) => `Cannot reach the server: ${p.msg}`,
    'hint.size': ' (here: pick the size first, or write one row per line)',
    odd: 'odd',
    even: 'even',
    'why.odd': (p) => `On a board ${p.cols} wide every move keeps the parity of the number of inversions ` +
      `(pairs of tiles in the wrong order, blank ignored). The start has ${p.is} (${p.ps}), ` +
      `the goal has ${p.ig} (${p.pg}), so no sequence of moves joins them.`,
    'why.even': (p) => `On a board ${p.cols} wide every move keeps the parity of inversions + the blank's row. ` +
      `The start has ${p.is} inversions with the blank in row ${p.rs} (${p.is} + ${p.rs} is ${p.ps}), ` +
      `the goal ${p.ig} with the blank in row ${p.rg} (${p.ig} + ${p.rg} is ${p.pg}), ` +
      'so no sequence of moves joins them.',
    'dist.bar': (p) => `${p.count} position${s(p.c)} need${p.c === 1 ? 's' : ''} ${p.m} move${s(p.m)}`,
    'puzzle.square': (p) => `${p.n}-puzzle`,
    'puzzle.rect': (p) => `${p.rows} × ${p.cols} puzzle`,
    'stand.goal': 'is the goal itself',
    'stand.needs': (p) => `needs ${p.m} move${s(p.m)}`,
    'stand.none': 'no position needs fewer',
    'stand.allBut': (p) => `all but ${p.k} of the ${p.all} positions need fewer`,
    'stand.only': (p) => `only ${p.k} of the ${p.all} positions need fewer`,
    'stand.pct': (p) => `${p.pct}% of all ${p.all} positions need fewer`,
    'stand.hardest': ' It is one of the hardest.',
    'stand.max': (p) => ` The hardest need ${p.m}.`,
    'stand.text': (p) => `This ${p.name} position ${p.needs}; ${p.share}.${p.tail}`,
    'cmp.title': 'Compare',
    'cmp.none': 'no algorithm answered',
    'cmp.agree': (p) => `all agree: ${p.what}`,
    'cmp.nmoves': (p) => `${p.n} moves`,
    'cmp.unreachable': 'unreachable',
    'cmp.disagree': 'the algorithms disagree!',
    'cmp.notRun': 'not run',
    'th.algorithm': 'Algorithm',
    'th.heuristic': 'Heuristic',
    'th.moves': 'Moves',
    'th.expanded': 'Expanded',
    'th.generated': 'Generated',
    'th.peak': 'Peak states',
    'th.time': 'Time',
    'th.note': 'Note',
    'cmp.chart': 'Nodes expanded',
    'cmp.log': '(log scale)',
    footer: 'Moves are named after the way the <em>blank</em> travels: U, D, L, R. ' +
      'API: <code>POST /api/solve</code>, <code>POST /api/compare</code>, <code>POST /api/trace</code>, <code>POST /api/analyse</code>, <code>POST /api/verify</code>, <code>POST /api/apply</code>, <code>POST /api/rewrite</code>, <code>GET /api/health</code>.',
    // ---- Explore
    'ex.title': 'Explore: watch the searches',
    'ex.intro': 'Pick a board and one to four algorithms; the same controls drive them all, node by node.',
    'ex.example': 'Example',
    'ex.fromSolve': 'the board of the Solve tab',
    'ex.algos': 'Algorithms (1 to 4; two or more race)',
    'ex.run': 'Run',
    'ex.step': 'Step',
    'ex.play': 'Play',
    'ex.pause': 'Pause',
    'ex.end': 'To the end',
    'ex.restart': 'Restart',
    'ex.speed': 'Speed',
    'ex.rate': (p) => `${p.n} node${s(p.n)}/s`,
    'ex.all': 'the whole search at once',
    'ex.pickAlgo': 'Pick between 1 and 4 algorithms.',
    'ex.fetching': (p) => `Running ${p.algo} on the server (${p.i} of ${p.n})…`,
    'ex.expanded': 'expanded',
    'ex.generated': 'generated',
    'ex.open': 'open',
    'ex.closed': 'closed',
    'ex.maxOpen': 'largest frontier',
    'ex.depth': 'depth g',
    'ex.bound': 'bound',
    'ex.current': 'current node',
    'ex.root': 'the start',
    'ex.rootBack': 'the goal (backward search)',
    'ex.via': (p) => `reached by ${p.d} (blank ${{ U: 'up', D: 'down', L: 'left', R: 'right' }[p.d]})`,
    'ex.parts': (p) => `pattern-database groups: ${p.parts}`,
    'ex.reflected': (p) => `reflected: ${p.parts}`,
    'ex.reflectedRaised': (p) => `reflected: ${p.parts}, which raised the estimate`,
    'ex.openList': 'Open list: best entries',
    'ex.noOpen': 'The server did not report this search\'s open list.',
    'ex.idaOpen': 'No open list: it goes depth first under a bound, keeping only the current path.',
    'ex.emptyOpen': 'empty',
    'ex.openLast': 'As at the last event recorded:',
    'ex.noNodes': 'The server did not report the nodes of this search.',
    'ex.tree': (p) => `Search tree (first ${p.n} nodes)`,
    'ex.legend.open': 'open',
    'ex.legend.closed': 'closed',
    'ex.legend.current': 'current',
    'ex.legend.solution': 'solution',
    'ex.chart.layers': 'States per BFS layer',
    'ex.chart.f': 'Nodes expanded at each f = g + h',
    'ex.chart.iter': 'IDA* iterations: nodes expanded under each bound',
    'ex.chart.side': (p) => `${p.side === 'backward' ? 'backward' : 'forward'} layers`,
    'ex.frontiers': 'Frontiers',
    'ex.forward': 'forward (from the start)',
    'ex.backward': 'backward (from the goal)',
    'ex.meet': (p) => `They met here: ${p.f} moves from the start, ${p.b} from the goal`,
    'ex.capped': (p) => `Recorded ${p.n} of ${p.m} events; the counters jump to the search's totals at the end.`,
    'ex.done': (p) => `Done: ${p.n} move${s(p.n)}`,
    'ex.doneUnreachable': 'Done: the goal cannot be reached',
    'ex.notOptimal': ' (not proven the fewest)',
    'ex.replay': 'Replay the solution',
    'ex.replayStep': (p) => `move ${p.i} of ${p.n}`,
    'ex.error': (p) => `${p.algo}: ${p.msg}`,
    // ---- Play
    'tab.play': 'Play',
    'pl.title': 'Play: solve it yourself',
    'pl.how': 'Click a tile in line with the blank to slide it and the tiles between; arrow keys slide the tiles that way. Z undoes.',
    'pl.boardAria': 'Board to solve',
    'pl.movesAria': 'Your moves, as the tiles slide',
    'pl.setupAria': 'Choose a board',
    'pl.stm': 'Moves (STM)',
    'pl.mtm': 'Pushes (MTM)',
    'pl.time': 'Time',
    'pl.undo': 'Undo',
    'pl.reset': 'Reset',
    'pl.hint': 'Hint',
    'pl.new': 'New game',
    'pl.board': 'Board',
    'pl.random3': 'random 3 × 3',
    'pl.random24': 'random 2 × 4',
    'pl.random4': 'random 4 × 4',
    'pl.metric': 'Hints count',
    'pl.metric.stm': 'single tiles (STM)',
    'pl.metric.mtm': 'pushes (MTM)',
    'pl.noMoves': 'No moves yet: the letters say which way the tiles slide.',
    'pl.solved': 'Solved!',
    'pl.thinking': 'Looking for an optimal move…',
    'pl.hintText': (p) => `Slide ${p.tiles} ${p.dir}: ${p.n} ${p.metric} move${s(p.n)} to go from here.`,
    'dir.U': 'up',
    'dir.D': 'down',
    'dir.L': 'left',
    'dir.R': 'right',
    'pl.unreachable': 'The goal cannot be reached from this board (the other parity class).',
    'pl.noAnalysis': (p) => `No analysis: ${p.msg}`,
    'pl.summary': (p) => `Solved in ${p.time}. How close to the fewest moves:`,
    'pl.anLine': (p) => `${p.metric}: ${p.n} move${s(p.n)}, optimal ${p.opt}; ` +
      (p.w === 0 ? 'not one wasted.' : `${p.w} wasted in ${p.d} detour${s(p.d)}.`),
    'pl.moveTitle': (p) => `move ${p.i} (${p.m}): ${p.before} → ${p.after} to go`,
    'pl.legend': 'Struck through and red: moves of a detour (wasted); hover a move for its distances.',
  };

  const ZH = {
    title: 'npuzzle：滑块拼图求解器',
    tagline: '摆好一个滑块拼图，求出最少步数，再看它一步步走完。',
    'tab.solve': '求解',
    'tab.explore': '探索搜索过程',
    'lang.label': '语言',
    'aria.board': '棋盘',
    'aria.setup': '设置与求解',
    'aria.goalBoard': '目标棋盘',
    'aria.moves': '空格的移动序列',
    start: '初始状态',
    goal: '目标状态',
    'hint.edit': '点击与空格同行或同列的方块，或用方向键移动空格。蓝色方块已在目标位置。',
    'hint.play': '逐步查看解法；蓝色方块已在目标位置。修改棋盘会从当前局面重新开始。',
    'start.label': '初始状态，任意格式均可（Ctrl+Enter 求解）',
    'start.placeholder': '2 8 3 1 6 4 7 0 5  或  2 8 3 / 1 6 4 / 7 0 5',
    'goal.label': '目标状态，任意格式均可',
    'goal.placeholder': '1 2 3 8 0 4 7 6 5  或  spiral',
    'btn.first': '回到开头',
    'btn.first.title': '回到开头（Home）',
    'btn.back': '后退一步',
    'btn.play': '播放',
    'btn.pause': '暂停',
    'btn.play.title': '播放 / 暂停（空格键）',
    'btn.forward': '前进一步',
    'btn.last': '跳到结尾',
    'btn.last.title': '跳到结尾（End）',
    speed: '速度',
    'speed.moves': (p) => `每秒 ${p.n} 步`,
    size: '尺寸',
    algorithm: '算法',
    heuristic: '启发函数',
    'goal.blank-last': '空格在最后',
    'goal.blank-first': '空格在最前',
    'goal.spiral': '螺旋',
    'goal.custom': '自定义',
    'algo.auto': '自动',
    'algo.table': '完整距离表',
    'algo.bfs': '广度优先搜索 BFS',
    'algo.bfs-hash': 'BFS（哈希集合）',
    'algo.bfs-set': 'BFS（有序集合）',
    'algo.bibfs': '双向广度优先搜索',
    'algo.astar': 'A* 搜索',
    'algo.idastar': 'IDA* 搜索',
    'algo.wastar': '加权 A*（不保证最优）',
    'algo.greedy': '贪婪最佳优先（不保证最优）',
    'algo.dfid': '深度优先迭代加深',
    'algo.anytime': 'Anytime 搜索（不一定最优）',
    'algo.fast': '快速构造法（不保证最优）',
    'h.auto': '自动',
    'h.misplaced': '错位方块数',
    'h.manhattan': '曼哈顿距离',
    'h.linear-conflict': '线性冲突',
    'h.pdb': '模式数据库',
    'btn.shuffle': '打乱',
    'btn.shuffle.title': '随机生成一个能到达目标的初始状态',
    'btn.reset': '复原',
    'btn.reset.title': '把初始状态设为目标状态',
    'btn.solve': '求解',
    'btn.compare': '比较',
    'btn.cancel': '取消',
    solving: '正在求解',
    comparing: '正在比较',
    'status.busy': (p) => `${p.verb}… ${p.secs} 秒`,
    cancelled: (p) => (p.kind === 'solve' ? '已取消求解。' : '已取消比较。'),
    moves: '步',
    'facts.algorithm': '算法',
    'facts.expanded': '扩展节点数',
    'facts.time': '搜索用时',
    unreachable: '无法到达',
    'moves.fewest': () => '步（最少步数）',
    'moves.bound': (p) => `步（未证明最少：至少需要 ${p.lb} 步，因此至多是最少步数的 ${p.ratio} 倍）`,
    'already.goal': '初始状态已经是目标状态。',
    'move.title': (p) => `第 ${p.i} 步：空格向${{ U: '上', D: '下', L: '左', R: '右' }[p.d]}移动`,
    'no.moves': '无需移动',
    'caption.move': (p) => `第 ${p.step} 步，共 ${p.n} 步`,
    'aria.after': (p) => `第 ${p.step} 步之后的棋盘`,
    'aria.start': '初始棋盘',
    'server.unreachable': (p) => `无法连接服务器：${p.msg}`,
    'hint.size': '（请先选择尺寸，或每行写一行方块）',
    odd: '奇数',
    even: '偶数',
    'why.odd': (p) => `在宽为 ${p.cols} 的棋盘上，每一步都不改变逆序数（忽略空格后，顺序颠倒的方块对数）的奇偶性。` +
      `初始状态有 ${p.is} 个逆序（${p.ps}），目标状态有 ${p.ig} 个（${p.pg}），所以无论怎样移动都无法从前者到达后者。`,
    'why.even': (p) => `在宽为 ${p.cols} 的棋盘上，每一步都不改变“逆序数 + 空格所在行号”的奇偶性。` +
      `初始状态有 ${p.is} 个逆序，空格在第 ${p.rs} 行（${p.is} + ${p.rs} 为${p.ps}）；` +
      `目标状态有 ${p.ig} 个逆序，空格在第 ${p.rg} 行（${p.ig} + ${p.rg} 为${p.pg}），所以无论怎样移动都无法从前者到达后者。`,
    'dist.bar': (p) => `${p.count} 个局面需要 ${p.m} 步`,
    'puzzle.square': (p) => `${p.n} 数码`,
    'puzzle.rect': (p) => `${p.rows} × ${p.cols} 拼图`,
    'stand.goal': '就是目标本身',
    'stand.needs': (p) => `需要 ${p.m} 步`,
    'stand.none': '没有局面需要更少的步数',
    'stand.allBut': (p) => `全部 ${p.all} 个局面中，除 ${p.k} 个外都需要更少的步数`,
    'stand.only': (p) => `全部 ${p.all} 个局面中，只有 ${p.k} 个需要更少的步数`,
    'stand.pct': (p) => `全部 ${p.all} 个局面中有 ${p.pct}% 需要更少的步数`,
    'stand.hardest': '它是最难的局面之一。',
    'stand.max': (p) => `最难的局面需要 ${p.m} 步。`,
    'stand.text': (p) => `这个 ${p.name}局面${p.needs}；${p.share}。${p.tail}`,
    'cmp.title': '比较',
    'cmp.none': '没有算法给出答案',
    'cmp.agree': (p) => `结果一致：${p.what}`,
    'cmp.nmoves': (p) => `${p.n} 步`,
    'cmp.unreachable': '无法到达',
    'cmp.disagree': '各算法的结果不一致！',
    'cmp.notRun': '未运行',
    'th.algorithm': '算法',
    'th.heuristic': '启发函数',
    'th.moves': '步数',
    'th.expanded': '扩展',
    'th.generated': '生成',
    'th.peak': '状态峰值',
    'th.time': '用时',
    'th.note': '备注',
    'cmp.chart': '扩展节点数',
    'cmp.log': '（对数刻度）',
    footer: '移动以<em>空格</em>的移动方向命名：U 上、D 下、L 左、R 右。' +
      'API：<code>POST /api/solve</code>、<code>POST /api/compare</code>、<code>POST /api/trace</code>、<code>POST /api/analyse</code>、<code>POST /api/verify</code>、<code>POST /api/apply</code>、<code>POST /api/rewrite</code>、<code>GET /api/health</code>。',
    'ex.title': '探索：观察搜索过程',
    'ex.intro': '选一个棋盘和一到四种算法；同一组按钮同时驱动它们，一个节点一个节点地前进。',
    'ex.example': '示例',
    'ex.fromSolve': '“求解”页中的棋盘',
    'ex.algos': '算法（1 到 4 种；两种以上即同台竞赛）',
    'ex.run': '运行',
    'ex.step': '单步',
    'ex.play': '播放',
    'ex.pause': '暂停',
    'ex.end': '直接到结尾',
    'ex.restart': '重新开始',
    'ex.speed': '速度',
    'ex.rate': (p) => `每秒 ${p.n} 个节点`,
    'ex.all': '一次显示整个搜索',
    'ex.pickAlgo': '请选择 1 到 4 种算法。',
    'ex.fetching': (p) => `服务器正在运行 ${p.algo}（第 ${p.i} 个，共 ${p.n} 个）…`,
    'ex.expanded': '已扩展',
    'ex.generated': '已生成',
    'ex.open': 'Open 表',
    'ex.closed': 'Closed 表',
    'ex.maxOpen': '最大边界',
    'ex.depth': '深度 g',
    'ex.bound': '阈值',
    'ex.current': '当前节点',
    'ex.root': '初始状态',
    'ex.rootBack': '目标状态（反向搜索）',
    'ex.via': (p) => `由 ${p.d}（空格向${{ U: '上', D: '下', L: '左', R: '右' }[p.d]}）得到`,
    'ex.parts': (p) => `模式数据库各分组：${p.parts}`,
    'ex.reflected': (p) => `对称（转置）查表：${p.parts}`,
    'ex.reflectedRaised': (p) => `对称（转置）查表：${p.parts}，提高了估计值`,
    'ex.openList': 'Open 表中最优的节点',
    'ex.noOpen': '服务器没有报告这种搜索的 Open 表。',
    'ex.idaOpen': '没有 Open 表：它在阈值之内深度优先搜索，只保存当前路径。',
    'ex.emptyOpen': '空',
    'ex.openLast': '以下为记录到的最后一个事件时的 Open 表：',
    'ex.noNodes': '服务器没有报告这种搜索的节点。',
    'ex.tree': (p) => `搜索树（前 ${p.n} 个节点）`,
    'ex.legend.open': '待扩展',
    'ex.legend.closed': '已扩展',
    'ex.legend.current': '当前',
    'ex.legend.solution': '解路径',
    'ex.chart.layers': 'BFS 每层的状态数',
    'ex.chart.f': '各 f = g + h 值上扩展的节点数',
    'ex.chart.iter': 'IDA* 各轮迭代：每个阈值下扩展的节点数',
    'ex.chart.side': (p) => (p.side === 'backward' ? '反向各层' : '正向各层'),
    'ex.frontiers': '两个方向的边界',
    'ex.forward': '正向（从初始状态出发）',
    'ex.backward': '反向（从目标状态出发）',
    'ex.meet': (p) => `两个方向在这里相遇：距初始状态 ${p.f} 步，距目标状态 ${p.b} 步`,
    'ex.capped': (p) => `只记录了 ${p.m} 个事件中的 ${p.n} 个；结束时计数器会跳到搜索的总数。`,
    'ex.done': (p) => `完成：${p.n} 步`,
    'ex.doneUnreachable': '完成：无法到达目标状态',
    'ex.notOptimal': '（未证明最少）',
    'ex.replay': '回放解法',
    'ex.replayStep': (p) => `第 ${p.i} 步，共 ${p.n} 步`,
    'ex.error': (p) => `${p.algo}：${p.msg}`,
    'tab.play': '玩',
    'pl.title': '自己玩：亲手解开它',
    'pl.how': '点击与空格同行或同列的滑块，它和中间的滑块一起滑过去；方向键按箭头方向滑动滑块。按 Z 撤销。',
    'pl.boardAria': '要解开的棋盘',
    'pl.movesAria': '你的移动（按滑块的滑动方向）',
    'pl.setupAria': '选择棋盘',
    'pl.stm': '步数（STM）',
    'pl.mtm': '推动次数（MTM）',
    'pl.time': '用时',
    'pl.undo': '撤销',
    'pl.reset': '重来',
    'pl.hint': '提示',
    'pl.new': '新一局',
    'pl.board': '棋盘',
    'pl.random3': '随机 3 × 3',
    'pl.random24': '随机 2 × 4',
    'pl.random4': '随机 4 × 4',
    'pl.metric': '提示的计数方式',
    'pl.metric.stm': '单个滑块（STM）',
    'pl.metric.mtm': '整行推动（MTM）',
    'pl.noMoves': '还没有移动：字母表示滑块的滑动方向。',
    'pl.solved': '解开了！',
    'pl.thinking': '正在寻找最优的一步…',
    'pl.hintText': (p) => `把 ${p.tiles} 向${p.dir}滑：从这里还需 ${p.n} 步（${p.metric}）。`,
    'dir.U': '上',
    'dir.D': '下',
    'dir.L': '左',
    'dir.R': '右',
    'pl.unreachable': '从这个棋盘无法到达目标状态（奇偶性不同）。',
    'pl.noAnalysis': (p) => `无法分析：${p.msg}`,
    'pl.summary': (p) => `用时 ${p.time} 解开。离最少步数有多近：`,
    'pl.anLine': (p) => `${p.metric}：${p.n} 步，最少 ${p.opt} 步；` +
      (p.w === 0 ? '一步也没有浪费。' : `${p.d} 段绕路中浪费了 ${p.w} 步。`),
    'pl.moveTitle': (p) => `第 ${p.i} 步（${p.m}）：还需 ${p.before} → ${p.after} 步`,
    'pl.legend': '红色删除线：绕路中的移动（浪费的步数）；把鼠标停在某一步上可看到距离。',
  };

  const DICT = { en: EN, zh: ZH };
  const KEY = 'npuzzle.lang';
  const listeners = [];

  const known = (l) => (l && l.toLowerCase().startsWith('zh') ? 'zh' : l && l.toLowerCase().startsWith('en') ? 'en' : null);

  function stored() {
    try {
      return localStorage.getItem(KEY);
    } catch (e) {
      return null; // storage may be off; the choice then lasts the visit
    }
  }

  function pick() {
    const asked = known(new URLSearchParams(location.search).get('lang'));
    if (asked) return asked;
    const saved = known(stored());
    if (saved) return saved;
    for (const l of navigator.languages || [navigator.language]) {
      const k = known(l);
      if (k) return k;
    }
    return 'en';
  }

  let lang = pick();

  function t(key, params) {
    const v = DICT[lang][key] !== undefined ? DICT[lang][key] : EN[key];
    if (v === undefined) return key;
    return typeof v === 'function' ? v(params || {}) : v;
  }

  // An algorithm's or heuristic's name as the server writes it (`astar`,
  // `manhattan`), in words where this file has them.
  function name(kind, v) {
    const key = `${kind === 'algo' ? 'algo' : 'h'}.${v}`;
    return EN[key] === undefined ? v : t(key);
  }

  function apply(root) {
    const scope = root || document;
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
    document.title = t('title');
    const each = (attr, f) => scope.querySelectorAll(`[${attr}]`).forEach((el) => f(el, t(el.getAttribute(attr))));
    each('data-i18n', (el, v) => { el.textContent = v; });
    each('data-i18n-html', (el, v) => { el.innerHTML = v; });
    each('data-i18n-title', (el, v) => { el.title = v; });
    each('data-i18n-aria', (el, v) => { el.setAttribute('aria-label', v); });
    each('data-i18n-placeholder', (el, v) => { el.placeholder = v; });
  }

  // The switch: remembered, and written into the address when it names a
  // language (else ?lang= would win over the choice on the next visit).
  function set(l) {
    lang = known(l) || 'en';
    try {
      localStorage.setItem(KEY, lang);
    } catch (e) { /* not remembered, still switched */ }
    const url = new URL(location.href);
    if (url.searchParams.has('lang')) {
      url.searchParams.set('lang', lang);
      history.replaceState(null, '', url);
    }
    apply();
    listeners.forEach((f) => f(lang));
  }

  window.npuzzle = window.npuzzle || {};
  window.npuzzle.i18n = {
    t, name, apply, set,
    lang: () => lang,
    onChange: (f) => listeners.push(f),
  };

  apply();
  const sel = document.getElementById('lang');
  if (sel) {
    sel.value = lang;
    sel.addEventListener('change', () => set(sel.value));
  }
})();
