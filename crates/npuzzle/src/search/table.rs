//! The `table` algorithm: a search's answer looked up in the complete
//! tables below the searches ([`crate::table`]).

use super::{Problem, SearchError, Solution, SolveOptions, Solver, Stats};
use crate::table::{Lookup, TableSet, MAX_CELLS};
use std::time::Instant;

/// The `table` algorithm: the answer looked up in the process-wide
/// complete tables ([`TableSet::global`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct TableSolver;

impl Solver for TableSolver {
    fn name(&self) -> &'static str {
        "table"
    }

    fn solve(&self, problem: &Problem, opts: &SolveOptions) -> Result<Solution, SearchError> {
        let t0 = Instant::now();
        let shape = problem.shape();
        let set = TableSet::global_in(opts.metric);
        let lookup = set.query(
            shape,
            problem.start().tiles(),
            problem.goal().tiles(),
            opts.want_path,
        );
        let peak = set
            .table(shape, problem.goal().blank())
            .map_or(0, |t| t.len() as u64);
        match lookup {
            Lookup::NoTable => Err(SearchError::NotApplicable {
                algorithm: "table",
                shape,
                reason: format!("complete tables cover boards of at most {MAX_CELLS} cells"),
            }),
            Lookup::Unreachable => Ok(Solution::unreachable(self.name())),
            Lookup::Found {
                moves,
                path,
                probes,
            } => Ok(Solution::found(
                self.name(),
                None,
                Some(moves),
                path,
                Stats {
                    expanded: if opts.want_path { u64::from(moves) } else { 0 },
                    generated: probes,
                    peak_states: peak,
                    elapsed: t0.elapsed(),
                },
            )),
        }
    }
}
