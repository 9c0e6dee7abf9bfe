//! Reads boards one per line on stdin and solves each optimally with slidy.
//!
//! Boards are written as npuzzle writes them: rows split by `/`
//! (`1 2 3/4 5 6/7 8 0`), or flat (`1 2 3 4 5 6 7 8 0`), square or with
//! `--size RxC` (R rows, C columns, as npuzzle's `--size`; a bare `N` means
//! NxN). 0 is the blank; the goal is
//! slidy's solved state, 1..N-1 in rows with the blank last.
//!
//! Output, one line per board, in input order:
//!     LENGTH SECONDS MOVES
//! LENGTH is counted in the metric asked for, SECONDS is the wall time of the
//! solve call alone, MOVES is the solution in slidy's notation (tile
//! notation: the letter is the way the tiles slide), pushes as `D2`.
//! Unsolvable boards print `unsolvable`.
//!
//! Before the first board, the solver (and the pattern database it builds)
//! is made once; its time goes to stderr as `# build SECONDS solver NAME`.
//! Every solution is replayed on its board and checked, and its length
//! checked against the metric (the run aborts otherwise).

use std::{
    io::{self, BufRead as _, BufWriter, Write as _},
    process::ExitCode,
    str::FromStr as _,
    time::Instant,
};

use slidy::{
    algorithm::algorithm::Algorithm,
    puzzle::{puzzle::Puzzle, size::Size, sliding_puzzle::SlidingPuzzle as _},
    solver::{
        solver::{Solver as _, SolverError},
        Solver2x2Mtm, Solver2x2Stm, Solver3x2Mtm, Solver3x2Stm, Solver3x3Mtm, Solver3x3Stm,
        Solver4x2Mtm, Solver4x2Stm, Solver4x3Mtm, Solver4x3Stm, Solver4x4Mtm, Solver4x4Stm,
        Solver5x2Mtm, Solver5x2Stm, Solver6x2Mtm, Solver6x2Stm,
    },
};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Metric {
    Stm,
    Mtm,
}

type SolveFn = Box<dyn FnMut(&Puzzle) -> Result<Algorithm, SolverError>>;

/// Builds slidy's optimal solver for this size and metric (the aliases in
/// `slidy::solver`: `small::solver::Solver` with a complete table up to 12
/// cells, `size4x4::{stm,mtm}::solver::Solver` for 4x4). `Solver*::default()`
/// builds the pattern database, which is what the build time measures.
fn make_solver(w: u64, h: u64, metric: Metric) -> Option<(&'static str, SolveFn)> {
    // The small solvers take both orientations (WxH and HxW, W columns).
    let (a, b) = if w >= h { (w, h) } else { (h, w) };
    macro_rules! mk {
        ($t:ty) => {{
            let mut s = <$t>::default();
            let f: SolveFn = Box::new(move |p: &Puzzle| s.solve(p));
            Some((stringify!($t), f))
        }};
    }
    match (a, b, metric) {
        (2, 2, Metric::Stm) => mk!(Solver2x2Stm),
        (2, 2, Metric::Mtm) => mk!(Solver2x2Mtm),
        (3, 2, Metric::Stm) => mk!(Solver3x2Stm),
        (3, 2, Metric::Mtm) => mk!(Solver3x2Mtm),
        (3, 3, Metric::Stm) => mk!(Solver3x3Stm),
        (3, 3, Metric::Mtm) => mk!(Solver3x3Mtm),
        (4, 2, Metric::Stm) => mk!(Solver4x2Stm),
        (4, 2, Metric::Mtm) => mk!(Solver4x2Mtm),
        (4, 3, Metric::Stm) => mk!(Solver4x3Stm),
        (4, 3, Metric::Mtm) => mk!(Solver4x3Mtm),
        (5, 2, Metric::Stm) => mk!(Solver5x2Stm),
        (5, 2, Metric::Mtm) => mk!(Solver5x2Mtm),
        (6, 2, Metric::Stm) => mk!(Solver6x2Stm),
        (6, 2, Metric::Mtm) => mk!(Solver6x2Mtm),
        (4, 4, Metric::Stm) => mk!(Solver4x4Stm),
        (4, 4, Metric::Mtm) => mk!(Solver4x4Mtm),
        _ => None,
    }
}

/// `RxC` (rows x columns, npuzzle's order) as (width, height).
fn parse_size(s: &str) -> Option<(u64, u64)> {
    let s = s.to_ascii_lowercase();
    if let Some((r, c)) = s.split_once('x') {
        Some((c.trim().parse().ok()?, r.trim().parse().ok()?))
    } else {
        let n = s.trim().parse().ok()?;
        Some((n, n))
    }
}

fn parse_board(line: &str, size: Option<(u64, u64)>) -> Result<Puzzle, String> {
    if line.contains('/') {
        let p = Puzzle::from_str(line).map_err(|e| format!("{e}"))?;
        if let Some((w, h)) = size {
            let s = p.size();
            if (s.width(), s.height()) != (w, h) {
                return Err(format!(
                    "board is {}x{} (rows x columns), --size says {h}x{w}",
                    s.height(),
                    s.width()
                ));
            }
        }
        Ok(p)
    } else {
        let pieces: Vec<u64> = line
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(|t| t.parse::<u64>().map_err(|e| format!("{t:?}: {e}")))
            .collect::<Result<_, _>>()?;
        let (w, h) = match size {
            Some(s) => s,
            None => {
                let n = (pieces.len() as f64).sqrt().round() as u64;
                if n * n != pieces.len() as u64 {
                    return Err("flat board that is not square: give --size RxC".into());
                }
                (n, n)
            }
        };
        let size = Size::new(w, h).map_err(|e| format!("{e}"))?;
        Puzzle::with_pieces(pieces, size).map_err(|e| format!("{e}"))
    }
}

fn usage() -> ExitCode {
    eprintln!("usage: slidy-driver --metric stm|mtm [--size RxC] < boards");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let mut metric = None;
    let mut size = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--metric" => {
                metric = match args.next().as_deref() {
                    Some("stm") => Some(Metric::Stm),
                    Some("mtm") => Some(Metric::Mtm),
                    _ => return usage(),
                };
            }
            "--size" => match args.next().as_deref().and_then(parse_size) {
                Some(s) => size = Some(s),
                None => return usage(),
            },
            _ => return usage(),
        }
    }
    let Some(metric) = metric else {
        return usage();
    };

    let stdin = io::stdin();
    let mut out = BufWriter::new(io::stdout().lock());
    let mut solver: Option<((u64, u64), SolveFn)> = None;
    for (lineno, line) in stdin.lock().lines().enumerate() {
        let line = line.expect("stdin");
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let puzzle = match parse_board(line, size) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("line {}: {e}", lineno + 1);
                return ExitCode::from(2);
            }
        };
        let dims = (puzzle.size().width(), puzzle.size().height());
        if solver.as_ref().is_none_or(|(d, _)| *d != dims) {
            let t0 = Instant::now();
            let Some((name, f)) = make_solver(dims.0, dims.1, metric) else {
                eprintln!(
                    "line {}: slidy has no optimal solver for {}x{} (rows x columns) here",
                    lineno + 1,
                    dims.1,
                    dims.0
                );
                return ExitCode::from(2);
            };
            eprintln!("# build {:.6} solver {name}", t0.elapsed().as_secs_f64());
            solver = Some((dims, f));
        }
        let solve = &mut solver.as_mut().unwrap().1;
        let t0 = Instant::now();
        let result = solve(&puzzle);
        let secs = t0.elapsed().as_secs_f64();
        match result {
            Ok(alg) => {
                let mut p = puzzle.clone();
                assert!(
                    p.try_apply_alg(&alg) && p.is_solved(),
                    "line {}: slidy's solution {alg} does not solve the board",
                    lineno + 1
                );
                let len = match metric {
                    Metric::Stm => alg.len_stm(),
                    Metric::Mtm => alg.len_mtm(),
                };
                writeln!(out, "{len} {secs:.6} {}", alg.display_short_spaced()).unwrap();
            }
            Err(SolverError::Unsolvable) => writeln!(out, "unsolvable {secs:.6}").unwrap(),
            Err(e) => {
                eprintln!("line {}: {e}", lineno + 1);
                return ExitCode::from(2);
            }
        }
        out.flush().unwrap();
    }
    ExitCode::SUCCESS
}
