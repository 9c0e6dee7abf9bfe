//! `npuzzle trace`: a search watched as it works — BFS layers, A*'s
//! expansions by `f`, IDA*'s iterations — with the effective branching
//! factor; `--json` for the summary as one object, `--jsonl` for every
//! event, one object a line.

use super::input::ProblemArgs;
use super::solve::SearchArgs;
use super::Failure;
use npuzzle::Trace;
use std::io::Write;

#[derive(clap::Args, Debug)]
pub struct TraceArgs {
    #[command(flatten)]
    pub problem: ProblemArgs,

    /// The summary as one JSON object (algorithm, moves, expanded,
    /// generated, layers, expanded_by_f, iterations, meet,
    /// branching_factor)
    #[arg(long, conflicts_with = "jsonl")]
    pub json: bool,

    /// Every event as one JSON object a line ({"event":"expanded",…},
    /// "layer", "iteration", "met"), then a "summary" line
    #[arg(long)]
    pub jsonl: bool,

    /// Most events --jsonl writes; the summary still counts every one
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    pub max_events: usize,

    /// Breadth-first search only: run it with each of the three visited
    /// sets (a rank bit array, a hash set, an ordered set) and show their
    /// time and memory side by side
    #[arg(long, conflicts_with = "jsonl")]
    pub sets: bool,

    #[command(flatten)]
    pub search: SearchArgs,
}

pub fn run(args: TraceArgs) -> Result<u8, Failure> {
    let problem = args.problem.problem()?;
    let opts = args.search.options(false)?;
    if args.sets {
        return sets(&problem, &opts, args.json);
    }
    // Only --jsonl shows the events: the summaries need none kept.
    let keep = if args.jsonl { args.max_events } else { 0 };
    let t = npuzzle::trace(&problem, &opts, keep)?;
    let mut out = std::io::stdout().lock();
    if args.jsonl {
        for e in &t.events {
            serde_json::to_writer(&mut out, e)?;
            writeln!(out)?;
        }
        let mut summary = serde_json::to_value(&t)?;
        summary["event"] = "summary".into();
        serde_json::to_writer(&mut out, &summary)?;
        writeln!(out)?;
    } else if args.json {
        serde_json::to_writer_pretty(&mut out, &t)?;
        writeln!(out)?;
    } else {
        write!(out, "{}", text(&t))?;
    }
    out.flush()?;
    Ok(0)
}

/// The three visited sets of breadth-first search on one problem, side by
/// side: each search's answer, nodes, time and bytes.
fn sets(
    problem: &npuzzle::Problem,
    opts: &npuzzle::SolveOptions,
    json: bool,
) -> Result<u8, Failure> {
    use npuzzle::Algorithm;
    let mut runs = Vec::new();
    for algo in [Algorithm::Bfs, Algorithm::BfsHash, Algorithm::BfsSet] {
        let t = npuzzle::trace(problem, &opts.clone().with_algorithm(algo), 0)?;
        runs.push(t);
    }
    let mut out = std::io::stdout().lock();
    if json {
        let rows: Vec<serde_json::Value> = runs
            .iter()
            .map(|t| {
                serde_json::json!({
                    "algorithm": t.algorithm,
                    "moves": t.moves,
                    "expanded": t.expanded,
                    "seconds": t.seconds,
                    "memory": t.memory,
                })
            })
            .collect();
        serde_json::to_writer_pretty(&mut out, &rows)?;
        writeln!(out)?;
    } else {
        writeln!(
            out,
            "algorithm  visited set      moves   expanded   seconds  visited bytes  states bytes"
        )?;
        for t in &runs {
            let (set, visited, nodes) = t
                .memory
                .map_or(("-", 0, 0), |m| (m.set, m.visited_bytes, m.nodes_bytes));
            let moves = t.moves.map_or("-1".to_string(), |m| m.to_string());
            writeln!(
                out,
                "{:<10} {:<15} {:>6} {:>10} {:>9.3} {:>14} {:>13}",
                t.algorithm, set, moves, t.expanded, t.seconds, visited, nodes
            )?;
        }
    }
    out.flush()?;
    Ok(0)
}

/// The summary a person reads.
fn text(t: &Trace) -> String {
    let mut s = t.algorithm.to_string();
    if let Some(h) = t.heuristic {
        s += &format!(" with {h}");
    }
    match t.moves {
        Some(m) if t.optimal => s += &format!(": {m} moves"),
        Some(m) => s += &format!(": {m} moves (not proven the fewest)"),
        None => s += ": the goal cannot be reached",
    }
    s += &format!(", {} expanded, {} generated", t.expanded, t.generated);
    if let Some(b) = t.branching_factor {
        s += &format!(", effective branching factor {b:.3}");
    }
    if let Some(open) = t.max_open {
        s += &format!(", largest open list {open}");
    }
    s.push('\n');
    if let Some(m) = &t.memory {
        s += &format!(
            "visited set: {} of {} bytes; states found: {} bytes\n",
            m.set, m.visited_bytes, m.nodes_bytes
        );
    }
    for (name, layers) in [("start", &t.forward_layers), ("goal", &t.backward_layers)] {
        if !layers.is_empty() {
            let sizes: Vec<String> = layers.iter().map(ToString::to_string).collect();
            s += &format!("layers from the {name}: {}\n", sizes.join(" "));
        }
    }
    if !t.layers.is_empty() {
        s += "depth  states first reached\n";
        for (d, n) in t.layers.iter().enumerate() {
            let last = t.moves == Some(d as u32) && d > 0;
            let note = if last {
                "  (the goal found: cut short)"
            } else {
                ""
            };
            s += &format!("{d:>5}  {n}{note}\n");
        }
    }
    if let Some(m) = &t.meet {
        let board: Vec<String> = m.board.iter().map(ToString::to_string).collect();
        s += &format!(
            "met at {}: {} moves from the start, {} from the goal\n",
            board.join(" "),
            m.forward,
            m.backward
        );
    }
    if !t.expanded_by_f.is_empty() {
        s += "    f  expanded\n";
        for (f, n) in &t.expanded_by_f {
            s += &format!("{f:>5}  {n}\n");
        }
    }
    if !t.iterations.is_empty() {
        s += "bound  expanded\n";
        for it in &t.iterations {
            s += &format!("{:>5}  {}\n", it.bound, it.expanded);
        }
    }
    s
}
