//! Options checked together before anything runs: combinations no search
//! can carry out, refused before a database is built.

use crate::heuristic::pdb;
use crate::search::{SearchError, SolveOptions};

/// Refuses options that cannot go together, before anything is read,
/// built or searched: the dual lookups with databases of one bit an entry
/// (they need the four-bit values). [`plan()`](super::plan()) and
/// [`algorithm_for`](super::algorithm_for) ask it. Options that merely do
/// not apply (pattern-database options with another heuristic) are left
/// alone: a caller may set them once and try every heuristic.
/// [`SolveOptions::check`] is its public form.
pub fn check_options(opts: &SolveOptions) -> Result<(), SearchError> {
    let pdb = &opts.pdb;
    if pdb.dual && pdb.blank == pdb::BlankMode::Bits {
        return Err(pdb::PdbError::DualCompact.into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{algorithm_for, plan};
    use super::*;
    use crate::board::{Board, Shape};
    use crate::heuristic::pdb::{BlankMode, PdbOptions};
    use crate::heuristic::HeuristicKind;
    use crate::search::{Algorithm, ErrorKind, Problem};

    #[test]
    fn the_dual_lookups_with_one_bit_databases_are_refused_before_any_build() {
        let goal = Board::blank_last(Shape::new(3, 3)).unwrap();
        let start = goal.moved(crate::board::Dir::Up).unwrap();
        let p = Problem::new(start, goal).unwrap();
        let opts = SolveOptions::default()
            .with_algorithm(Algorithm::Idastar)
            .with_heuristic(HeuristicKind::Pdb)
            .with_pdb(
                PdbOptions::default()
                    .with_dual(true)
                    .with_blank(BlankMode::Bits),
            );
        for e in [
            plan(&p, &opts).unwrap_err(),
            algorithm_for(p.shape(), 0, &opts).unwrap_err(),
        ] {
            assert_eq!(e.kind(), ErrorKind::BadInput, "{e}");
        }
        // options that do not apply are the library's to ignore
        let manhattan = SolveOptions::default()
            .with_heuristic(HeuristicKind::Manhattan)
            .with_pdb(PdbOptions::default().with_dual(true));
        assert!(plan(&p, &manhattan).is_ok());
    }
}
