//! The line a long IDA* search shows on a terminal: its bound, its nodes
//! and their rate, the iterations so far, and what the current one should
//! come to from their growth (each complete iteration is about the one
//! before times the ratio between the two before: within 0.8–1.34 of it on
//! Korf's 15-puzzles, median 1.02; the last stops at its first solution,
//! so for it this is an upper bound).

use indicatif::{ProgressBar, ProgressStyle};
use npuzzle::{Budget, Progress, ProgressSnapshot};
use std::io::IsTerminal;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A search shorter than this shows nothing.
const QUIET_FOR: Duration = Duration::from_secs(1);
const TICK: Duration = Duration::from_millis(500);

/// The watcher of one search: drawing until dropped.
pub struct Watcher {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for Watcher {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// `budget` with a progress record that a thread draws on stderr while
/// the search runs, when stderr is a terminal; `budget` unchanged
/// otherwise.
pub fn watch(budget: Budget) -> (Budget, Option<Watcher>) {
    if !std::io::stderr().is_terminal() {
        return (budget, None);
    }
    let progress = Arc::new(Progress::default());
    let (tx, rx) = mpsc::channel::<()>();
    let seen = Arc::clone(&progress);
    let thread = std::thread::spawn(move || draw(&seen, &rx));
    let watcher = Watcher {
        stop: Some(tx),
        thread: Some(thread),
    };
    (budget.with_progress(Some(progress)), Some(watcher))
}

fn draw(progress: &Progress, stop: &mpsc::Receiver<()>) {
    let t0 = Instant::now();
    let mut bar: Option<ProgressBar> = None;
    let mut last = (t0, 0u64);
    let mut rate = 0.0;
    // a message or a dropped sender ends the drawing
    while let Err(RecvTimeoutError::Timeout) = stop.recv_timeout(TICK) {
        let s = progress.snapshot();
        let now = Instant::now();
        let dt = now.duration_since(last.0).as_secs_f64();
        if dt > 0.0 {
            rate = s.nodes.saturating_sub(last.1) as f64 / dt;
        }
        last = (now, s.nodes);
        if s.bound == 0 || now.duration_since(t0) < QUIET_FOR {
            continue;
        }
        let b = bar.get_or_insert_with(|| {
            let b = ProgressBar::new_spinner();
            if let Ok(style) = ProgressStyle::with_template("{spinner} {elapsed} IDA* {wide_msg}") {
                b.set_style(style);
            }
            b
        });
        b.set_message(line(&s, rate));
        b.tick();
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
}

/// What the line says about `s`, at `rate` nodes a second.
pub fn line(s: &ProgressSnapshot, rate: f64) -> String {
    let done: u64 = s.iterations.iter().map(|&(_, n)| n).sum();
    let current = s.nodes.saturating_sub(done);
    let mut out = format!(
        "bound {}: {} nodes, {}/s",
        s.bound,
        short(current as f64),
        short(rate)
    );
    if let Some(est) = estimate(&s.iterations) {
        out.push_str(&format!(" of about {}", short(est)));
        if rate > 0.0 && est > current as f64 {
            out.push_str(&format!(", {} to go", time((est - current as f64) / rate)));
        }
    }
    let shown: Vec<String> = s
        .iterations
        .iter()
        .rev()
        .take(4)
        .rev()
        .map(|&(b, n)| format!("{b}: {}", short(n as f64)))
        .collect();
    if !shown.is_empty() {
        out.push_str(&format!(
            "; {} done, total {} (",
            s.iterations.len(),
            short(s.nodes as f64)
        ));
        out.push_str(&shown.join(", "));
        out.push(')');
    }
    out
}

/// The next iteration's size from the last two: the last times their ratio.
pub fn estimate(iterations: &[(u32, u64)]) -> Option<f64> {
    match iterations {
        [.., (_, a), (_, b)] if *a > 0 => Some(*b as f64 * (*b as f64 / *a as f64)),
        _ => None,
    }
}

/// `1234567` as `1.23M`.
fn short(x: f64) -> String {
    const UNITS: [(f64, &str); 4] = [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")];
    for (u, name) in UNITS {
        if x >= u {
            return format!("{:.2}{name}", x / u);
        }
    }
    format!("{x:.0}")
}

/// Seconds as `42 s`, `7.5 min`, `3.2 h`, `2.1 days`.
fn time(secs: f64) -> String {
    match secs {
        s if s < 90.0 => format!("{s:.0} s"),
        s if s < 5400.0 => format!("{:.1} min", s / 60.0),
        s if s < 172_800.0 => format!("{:.1} h", s / 3600.0),
        s => format!("{:.1} days", s / 86400.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_estimates_from_the_growth() {
        assert_eq!(estimate(&[(50, 10)]), None);
        assert_eq!(estimate(&[(50, 10), (52, 60)]), Some(360.0));
        let s = ProgressSnapshot {
            bound: 54,
            nodes: 70_000 + 120_000,
            iterations: vec![(50, 10_000), (52, 60_000)],
        };
        assert_eq!(
            line(&s, 1000.0),
            "bound 54: 120.00k nodes, 1.00k/s of about 360.00k, 4.0 min to go; \
             2 done, total 190.00k (50: 10.00k, 52: 60.00k)"
        );
        let first = ProgressSnapshot {
            bound: 50,
            nodes: 5,
            iterations: Vec::new(),
        };
        assert_eq!(line(&first, 0.0), "bound 50: 5 nodes, 0/s");
        assert_eq!(time(3.0 * 86400.0), "3.0 days");
        assert_eq!(short(2.5e9), "2.50G");
    }
}
