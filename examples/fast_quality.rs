//! Quality and speed of the fast constructive solver (`npuzzle::large`).
//!
//! ```text
//! cargo run --release --example fast_quality                      # n = 10, 20, 50, 100, 200 (10 boards each), 1000 (3)
//! cargo run --release --example fast_quality -- 10:20 50:5         # sizes and board counts of your choice
//! cargo run --release --example fast_quality -- --check 30:10      # also replay every path against its goal
//! cargo run --release --example fast_quality -- --detail 100:3     # where the moves go
//! cargo run --release --example fast_quality -- --korf data/korf24_50.txt
//! ```
//!
//! Random boards are uniform among those that reach the standard goal
//! (`1 2 … 0`), drawn from a seed fixed per size. For each size it prints
//! the mean number of moves, its ratio to Parberry's 8/3·n³ and to the
//! Manhattan lower bound (mean moves over mean bound), the median wall and
//! CPU seconds per board (CPU time of this thread: the wall clock also
//! counts other processes' turns on a busy machine), and the peak memory
//! of the process so far. `--korf` solves Korf and Felner's 50 24-puzzle
//! instances (goal `0 1 … 24`) and compares with their optimal lengths.

use npuzzle::board::Dir;
use npuzzle::board::Grid;
use npuzzle::large::{self, Discard, MoveSink, Options, Report};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::convert::Infallible;
use std::process::ExitCode;

/// Peak resident memory of this process (Linux), in MiB.
fn peak_rss_mib() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// CPU time of this thread in seconds (Linux).
fn cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

/// A uniformly random board that can reach `goal`: a uniform permutation,
/// with two tiles swapped when it has the wrong parity (a bijection
/// between the two classes).
fn random_start(rows: usize, cols: usize, goal: &[u32], rng: &mut ChaCha8Rng) -> Vec<u32> {
    let mut start = goal.to_vec();
    start.shuffle(rng);
    let grid = |t: &[u32]| Grid::new(rows, cols, t.to_vec()).expect("a permutation");
    if !grid(&start).can_reach(&grid(goal)) {
        let a = start.iter().position(|&t| t != 0).expect("a tile");
        let b = start.iter().rposition(|&t| t != 0).expect("a tile");
        start.swap(a, b);
    }
    start
}

/// Applies the moves to a copy of the start as they stream in.
struct Replay {
    rows: usize,
    cols: usize,
    board: Vec<u32>,
    blank: usize,
    off_board: bool,
}

impl MoveSink for Replay {
    type Error = Infallible;
    fn moves(&mut self, moves: &[Dir]) -> Result<(), Infallible> {
        for d in moves {
            match d.step(self.blank, self.rows, self.cols) {
                Some(to) => {
                    self.board.swap(self.blank, to);
                    self.blank = to;
                }
                None => self.off_board = true,
            }
        }
        Ok(())
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Solves one board, replaying the path if asked; the report and the CPU
/// seconds it took.
fn solve_one(n: usize, start: &[u32], goal: &[u32], check: bool) -> Result<(Report, f64), String> {
    let c0 = cpu_seconds().unwrap_or(0.0);
    let grid = |t: &[u32]| Grid::new(n, n, t.to_vec()).map_err(|e| e.to_string());
    let (s, g) = (grid(start)?, grid(goal)?);
    let report = if check {
        let mut sink = Replay {
            rows: n,
            cols: n,
            board: start.to_vec(),
            blank: start.iter().position(|&t| t == 0).unwrap_or(0),
            off_board: false,
        };
        let r = large::solve(&s, &g, &Options::default(), &mut sink).map_err(|e| e.to_string())?;
        if sink.off_board || sink.board != goal {
            return Err(format!("{n}x{n}: the path does not reach the goal"));
        }
        r
    } else {
        large::solve(&s, &g, &Options::default(), &mut Discard).map_err(|e| e.to_string())?
    };
    Ok((report, cpu_seconds().unwrap_or(0.0) - c0))
}

fn run_sizes(sizes: &[(usize, usize)], check: bool, detail: bool) -> Result<(), String> {
    println!(
        "{:>5} {:>6} {:>15} {:>10} {:>10} {:>9} {:>9} {:>9}",
        "n", "boards", "mean moves", "/(8/3n^3)", "/manhattan", "wall s", "cpu s", "peak MiB"
    );
    for &(n, count) in sizes {
        let mut rng = ChaCha8Rng::seed_from_u64(n as u64);
        let goal: Vec<u32> = (1..(n * n) as u32).chain([0]).collect();
        let (mut moves, mut bound) = (0f64, 0f64);
        let (mut wall, mut cpu) = (Vec::new(), Vec::new());
        let mut parts = [0f64; 6];
        for _ in 0..count {
            let start = random_start(n, n, &goal, &mut rng);
            let (r, c) = solve_one(n, &start, &goal, check)?;
            moves += r.moves as f64;
            bound += r.lower_bound as f64;
            wall.push(r.elapsed.as_secs_f64());
            cpu.push(c);
            for (p, x) in parts.iter_mut().zip([
                r.route_moves,
                r.carry_moves,
                r.window_moves,
                r.carry_steps,
                r.removed,
                r.pairs,
            ]) {
                *p += x as f64;
            }
        }
        let mean = moves / count as f64;
        println!(
            "{:>5} {:>6} {:>15.0} {:>10.3} {:>10.3} {:>9.3} {:>9.3} {:>9.1}",
            n,
            count,
            mean,
            mean / (8.0 / 3.0 * (n as f64).powi(3)),
            moves / bound,
            median(&mut wall),
            median(&mut cpu),
            peak_rss_mib().unwrap_or(f64::NAN)
        );
        if detail {
            let made = parts[0] + parts[1] + parts[2];
            println!(
                "      moves made: routes {:.1}%, carries {:.1}%, windows {:.1}%; {:.2} moves per carried step; {:.0} dropped and {:.0} pairs per board",
                100.0 * parts[0] / made,
                100.0 * parts[1] / made,
                100.0 * parts[2] / made,
                parts[1] / parts[3],
                parts[4] / count as f64,
                parts[5] / count as f64,
            );
        }
    }
    Ok(())
}

fn run_korf(path: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let goal: Vec<u32> = (0..25).collect();
    let mut ratios = Vec::new();
    let (mut sum_moves, mut sum_opt) = (0u64, 0u64);
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<u64> = line
            .split_whitespace()
            .map(|x| x.parse().map_err(|_| format!("{path}:{}: '{x}'", i + 1)))
            .collect::<Result<_, _>>()?;
        if f.len() < 26 {
            return Err(format!("{path}:{}: fewer than 26 fields", i + 1));
        }
        let start: Vec<u32> = f[..25].iter().map(|&t| t as u32).collect();
        let opt = f[25];
        let grid = |t: &[u32]| Grid::new(5, 5, t.to_vec()).map_err(|e| e.to_string());
        let (path, report) = large::solve_path(&grid(&start)?, &grid(&goal)?, &Options::default())
            .map_err(|e| e.to_string())?;
        assert_eq!(path.len() as u64, report.moves);
        ratios.push(report.moves as f64 / opt as f64);
        sum_moves += report.moves;
        sum_opt += opt;
    }
    let count = ratios.len();
    let mean = ratios.iter().sum::<f64>() / count as f64;
    let worst = ratios.iter().copied().fold(0.0, f64::max);
    println!(
        "{count} instances: mean moves {:.1} (optimal {:.1}); ratio to optimal: mean {mean:.3}, median {:.3}, worst {worst:.3}",
        sum_moves as f64 / count as f64,
        sum_opt as f64 / count as f64,
        median(&mut ratios),
    );
    Ok(())
}

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let outcome = if let Some(i) = args.iter().position(|a| a == "--korf") {
        let path = args
            .get(i + 1)
            .cloned()
            .unwrap_or_else(|| "data/korf24_50.txt".into());
        run_korf(&path)
    } else {
        let check = args.iter().any(|a| a == "--check");
        let detail = args.iter().any(|a| a == "--detail");
        args.retain(|a| a != "--check" && a != "--detail");
        let sizes: Result<Vec<(usize, usize)>, String> = if args.is_empty() {
            Ok(vec![
                (10, 10),
                (20, 10),
                (50, 10),
                (100, 10),
                (200, 10),
                (1000, 3),
            ])
        } else {
            args.iter()
                .map(|a| {
                    let (n, k) = a.split_once(':').unwrap_or((a, "10"));
                    match (n.parse(), k.parse()) {
                        (Ok(n), Ok(k)) if n >= 2 && k >= 1 => Ok((n, k)),
                        _ => Err(format!("'{a}' is not SIZE or SIZE:COUNT (e.g. 100:10)")),
                    }
                })
                .collect()
        };
        sizes.and_then(|s| run_sizes(&s, check, detail))
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
