//! The top of an IDA* iteration's tree, node by node: what the parallel
//! and the distributed drivers expand before handing subtrees out, one
//! expansion for both (the sequential core, [`super::ida::Ida`], has its
//! own in place).

use super::ida::child_key;
use super::moves::{dir_code, slide, Neighbours};
use super::prune::{MovePruner, FORBIDDEN};
use crate::board::{Dir, Problem};
use crate::heuristic::TableHooks;

/// A node above the cut: the board, how it was reached, its heuristic and
/// move-pruning automaton states.
pub(crate) struct Node<S> {
    pub(crate) tiles: Vec<u8>,
    pub(crate) blank: usize,
    pub(crate) state: u32,
    pub(crate) g: u32,
    pub(crate) hs: S,
    pub(crate) path: Vec<Dir>,
}

impl<S> Node<S> {
    /// The start of `problem`, its heuristic state `hs`.
    pub(crate) fn root(problem: &Problem, pruner: &MovePruner, hs: S) -> Node<S> {
        Node {
            tiles: problem.start().tiles().to_vec(),
            blank: problem.start().blank(),
            state: pruner.root(problem.start().blank()),
            g: 0,
            hs,
            path: Vec::new(),
        }
    }
}

/// What expanding one node found.
pub(crate) struct Children<S> {
    /// The children within the bound, in the order a sequential search
    /// takes them (smallest `f` first, then the heuristic's tie-break).
    pub(crate) within: Vec<Node<S>>,
    /// Children generated (the pruner's survivors).
    pub(crate) generated: u64,
    /// The least `f` above the bound among them (`u32::MAX`: none).
    pub(crate) next_bound: u32,
}

/// Expands `node` under `bound`.
pub(crate) fn children<H: TableHooks>(
    h: &H,
    pruner: &MovePruner,
    nb: &Neighbours,
    node: &Node<H::State>,
    bound: u32,
) -> Children<H::State> {
    let m = nb.of(node.blank);
    let mut kids = Vec::with_capacity(4);
    let (mut generated, mut next_bound) = (0, u32::MAX);
    for i in 0..usize::from(m.len) {
        let next = pruner.next(node.state, dir_code(m.dirs[i]));
        if next == FORBIDDEN {
            continue;
        }
        generated += 1;
        let to = usize::from(m.cells[i]);
        let mut tiles = node.tiles.clone();
        let tile = slide(&mut tiles, node.blank, to);
        // (full update: the child is searched further)
        let hs = h.update(&node.hs, &tiles, tile, to, node.blank);
        let mut f = node.g + 1 + h.value(&hs);
        if f <= bound && h.has_second() {
            f = f.max(node.g + 1 + h.second(&hs));
        }
        if f > bound {
            next_bound = next_bound.min(f);
            continue;
        }
        let mut path = node.path.clone();
        path.push(m.dirs[i]);
        let key = child_key(h, f, &hs);
        let child = Node {
            tiles,
            blank: to,
            state: next,
            g: node.g + 1,
            hs,
            path,
        };
        kids.push((key, child));
    }
    kids.sort_by_key(|k| k.0);
    Children {
        within: kids.into_iter().map(|(_, c)| c).collect(),
        generated,
        next_bound,
    }
}

/// Whether `node` is the goal (its heuristic zero and its tiles the goal's).
pub(crate) fn is_goal<H: TableHooks>(h: &H, problem: &Problem, node: &Node<H::State>) -> bool {
    h.value(&node.hs) == 0 && node.tiles == problem.goal().tiles()
}
