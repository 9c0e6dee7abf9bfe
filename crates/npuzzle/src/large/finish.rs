//! The final region (at most 10 cells), solved optimally by the exact
//! solvers.

use super::canon::Mover;
use super::frame::Region;
use super::line::Fail;
use crate::board::{Dir, Shape};
use crate::table::TableSet;

/// Solves the final region exactly; returns the number of moves it took.
pub(crate) fn finish(m: &mut Mover<'_>, region: Region) -> Result<u32, Fail> {
    let (h, w) = (region.rows(), region.cols());
    let g = &m.grid;
    let (gr, gc) = g.goal_rc(g.blank_label);
    let local = |label: u32| -> Option<usize> {
        let (r, c) = g.goal_rc(label);
        let (r, c) = (r as usize, c as usize);
        ((region.r0..region.r1).contains(&r) && (region.c0..region.c1).contains(&c))
            .then(|| (r - region.r0) * w + (c - region.c0))
    };
    let blank_goal = local(g.blank_label).ok_or_else(|| {
        Fail(format!(
            "goal blank ({gr}, {gc}) is outside the final region"
        ))
    })?;
    // Tile names in the small board: 0 for the blank, the rest numbered by
    // goal cell in reading order.
    let name = |l: usize| -> u8 {
        match l.cmp(&blank_goal) {
            std::cmp::Ordering::Less => l as u8 + 1,
            std::cmp::Ordering::Equal => 0,
            std::cmp::Ordering::Greater => l as u8,
        }
    };
    let goal: Vec<u8> = (0..h * w).map(name).collect();
    let mut start = Vec::with_capacity(h * w);
    for r in region.r0..region.r1 {
        for c in region.c0..region.c1 {
            let label = g.board[r * g.cols + c];
            let l = local(label).ok_or_else(|| {
                Fail(format!("tile for cell {label} is left in the final region"))
            })?;
            start.push(name(l));
        }
    }
    let path = exact_path(h, w, &start, &goal)?;
    for &d in &path {
        if !m.step_dir(d) {
            return Err(Fail("the exact path leaves the final region".into()));
        }
    }
    Ok(path.len() as u32)
}

/// An optimal path between two small boards, from the complete distance
/// tables (every final region has at most 10 cells). The table module is
/// used directly, not through the planner, which itself runs this solver.
fn exact_path(h: usize, w: usize, start: &[u8], goal: &[u8]) -> Result<Vec<Dir>, Fail> {
    TableSet::global()
        .path(Shape::new(h, w), start, goal)
        .ok_or_else(|| Fail(format!("the final {h}x{w} region cannot reach its goal")))
}
