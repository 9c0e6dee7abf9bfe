//! `batch_lines`: any bytes as a batch input, through the batch engine
//! with small budgets so that no line runs long.
//!
//! The input is a selector byte and the batch's bytes: the selector's low
//! three bits pick the size given ([`super::common::SIZES`]), the others
//! JSON lines, paths, a short line limit, counting the start (bit 6),
//! and, with bits 6 and 7 both set, running the streaming engine
//! (`npuzzle_io::batch::stream`, which `answer_text` wraps) on two worker
//! threads besides (a quarter of the selectors: its threads cost ten
//! times what the answers do). Checked:
//!
//! * the streaming engine writes exactly what the reader and answerer its
//!   workers use write when run line after line;
//! * exactly one output line per instance line (not blank, not `#`), in
//!   input order, each naming its line (JSON) or, for an error, its line
//!   number; no raw control characters in the output;
//! * an answer agrees with the general reader (`Scan::start_and_goal`):
//!   a line it cannot read gets an error, a goal it cannot reach `-1`, and
//!   a path, when given, leads from the start to the goal in the moves
//!   announced;
//! * with the `fuzzing` feature, the fast line reader of the batch runner
//!   agrees with the general reader on every line it accepts.

use super::common::{assert_short, size, split};
use npuzzle::board::{parse_path, Scan, Shape};
use npuzzle::heuristic::pdb::{PdbCache, PdbOptions};
use npuzzle::heuristic::HeuristicKind;
use npuzzle::{Board, Budget, SolveOptions};
use npuzzle_io::batch::{self, Answerer, BatchConfig, ChunkReader, Shard, StreamOptions, Tally};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// The line limit used when the selector asks for a short one (long
/// enough for the byte-order mark and a small board, short enough for the
/// fuzzer to pass it).
const SHORT_LINE: usize = 24;

/// One bounded memory cache of pattern databases for every input.
fn pdb_cache() -> Arc<PdbCache> {
    static CACHE: OnceLock<Arc<PdbCache>> = OnceLock::new();
    CACHE
        .get_or_init(|| Arc::new(PdbCache::new(32 << 20)))
        .clone()
}

/// The configuration the selector picks (built once per selector: the
/// default budgets read the machine's memory from the system).
pub fn config(selector: u8) -> &'static BatchConfig {
    static CONFIGS: OnceLock<Vec<BatchConfig>> = OnceLock::new();
    &CONFIGS.get_or_init(|| (0..=255).map(make_config).collect())[usize::from(selector)]
}

fn make_config(selector: u8) -> BatchConfig {
    let budget = Budget::default()
        .with_max_nodes(2_000)
        .with_max_states(2_000)
        .with_max_bytes(8 << 20)
        // Only a safety net: the node and state budgets stop searches
        // long before.
        .with_timeout(Some(Duration::from_millis(500)));
    let pdb = PdbOptions::default()
        .with_cache(false)
        .with_memory_cache(pdb_cache());
    BatchConfig {
        size: size(selector),
        jsonl: selector & 0x08 != 0,
        // Manhattan distance: with pattern databases every new 4x4 goal
        // would build its tables first (a tenth of a second under the
        // fuzzer's instrumentation, two thousand times the cost of an
        // answer); `pdb_file` and the server's tests cover that path.
        opts: SolveOptions::default()
            .with_heuristic(HeuristicKind::Manhattan)
            .with_budget(budget)
            .with_pdb(pdb)
            .with_path(selector & 0x10 != 0),
        max_line: if selector & 0x20 != 0 {
            SHORT_LINE
        } else {
            batch::DEFAULT_MAX_LINE
        },
        count_start: selector & 0x40 != 0,
        ..BatchConfig::default()
    }
}

/// The instance lines of a batch input, by an independent reading of the
/// format: lines end at `\n` (a last line without one counts); a
/// byte-order mark before the first is not part of it; a line that is
/// empty, only ASCII whitespace, or whose first other byte is `#` is not
/// an instance. Returns each instance's 1-based line number and bytes.
pub fn instance_lines(input: &[u8]) -> Vec<(u64, &[u8])> {
    let mut lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    if let Some(first) = lines.first_mut() {
        *first = first.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(first);
    }
    lines
        .into_iter()
        .enumerate()
        .filter(|(_, l)| {
            l.iter()
                .find(|b| !b.is_ascii_whitespace())
                .is_some_and(|&b| b != b'#')
        })
        .map(|(i, l)| (i as u64 + 1, l))
        .collect()
}

/// One output line, as read back.
#[derive(Debug)]
enum Out {
    Error,
    Answer { moves: i64, path: Option<String> },
}

/// The output of a batch answered on this thread, line after line: the
/// reader and answerer the stream's workers use, without the threads (a
/// thread pool per input would make the fuzzer a hundred times slower).
pub fn answer_sequentially(input: &[u8], cfg: &BatchConfig) -> (Vec<u8>, Tally) {
    let mut reader = ChunkReader::new(input, Shard::ALL).max_line(cfg.max_line);
    let mut answerer = Answerer::new(cfg);
    let (mut out, mut tally) = (Vec::new(), Tally::default());
    while let Some(chunk) = reader
        .next_chunk(64, 1 << 16)
        .unwrap_or_else(|e| panic!("reading a byte slice failed: {e}"))
    {
        for line in &chunk.lines {
            tally.add(answerer.answer_line(&chunk, line, &mut out));
        }
    }
    (out, tally)
}

/// Runs every check on the fuzzer's bytes.
pub fn check(data: &[u8]) {
    let (selector, input) = split(data);
    let cfg = config(selector);
    let (out, tally) = answer_sequentially(input, cfg);
    if selector & 0xC0 == 0xC0 {
        // The streaming engine on two workers writes the same, in order.
        let mut streamed = Vec::new();
        let opts = StreamOptions::default().with_threads(2);
        let stream_tally = batch::stream(
            std::io::Cursor::new(input.to_vec()),
            &mut streamed,
            cfg,
            &opts,
            &mut |_| {},
        )
        .unwrap_or_else(|e| panic!("stream failed on a byte buffer: {e} ({input:?})"));
        assert_eq!(
            String::from_utf8_lossy(&streamed),
            String::from_utf8_lossy(&out),
            "the stream and the sequential answers differ (input {input:?}, {cfg:?})"
        );
        assert_eq!(stream_tally, tally);
    }

    let want = instance_lines(input);
    let text = String::from_utf8(out)
        .unwrap_or_else(|e| panic!("output is not UTF-8: {e} (input {input:?})"));
    assert!(
        text.is_empty() || text.ends_with('\n'),
        "unterminated output {text:?} (input {input:?})"
    );
    let got: Vec<&str> = text.lines().collect();
    assert_eq!(
        got.len(),
        want.len(),
        "{} output lines for {} instance lines: {text:?} (input {input:?}, {cfg:?})",
        got.len(),
        want.len()
    );
    assert_eq!(tally.lines(), want.len() as u64, "tally {tally:?}");

    let mut scan = Scan::new();
    for ((line_no, line), out_line) in want.iter().zip(&got) {
        assert_short("batch output", out_line, &input);
        let parsed = read_output(out_line, *line_no, cfg)
            .unwrap_or_else(|why| panic!("line {line_no}: {why}: {out_line:?} (input {input:?})"));
        let too_long = line.len() > cfg.max_line;
        let Ok(line_text) = std::str::from_utf8(line) else {
            assert!(
                matches!(parsed, Out::Error),
                "non-UTF-8 line {line_no} answered"
            );
            continue;
        };
        if too_long {
            assert!(matches!(parsed, Out::Error), "long line {line_no} answered");
            continue;
        }
        check_simple_reader(line, line_text, cfg.size);
        let read = scan.start_and_goal(line_text, cfg.size);
        let (start, goal) = match read {
            Ok((s, Some(g))) => (s, g),
            Ok((s, None)) => {
                let g = Board::blank_last(s.shape()).expect("a board's own shape has a goal");
                (s, g)
            }
            Err(_) => {
                assert!(
                    matches!(parsed, Out::Error),
                    "line {line_no} {line_text:?} does not read, yet answered {out_line:?}"
                );
                continue;
            }
        };
        let Out::Answer { moves, path } = parsed else {
            // A budget ran out: the line's error says so.
            continue;
        };
        let reachable = start.can_reach(&goal);
        assert_eq!(
            moves >= 0,
            reachable,
            "line {line_no} {line_text:?}: {out_line:?}"
        );
        if let Some(path) = path {
            let dirs = parse_path(&path).unwrap_or_else(|e| panic!("{out_line:?}: {e}"));
            let end = start
                .apply_path(&dirs)
                .unwrap_or_else(|e| panic!("line {line_no} {line_text:?}: path {path}: {e}"));
            assert_eq!(end, goal, "line {line_no} {line_text:?}: path {path}");
            let counted = dirs.len() as i64 + i64::from(cfg.count_start);
            assert_eq!(moves, counted, "line {line_no} {line_text:?}: {out_line:?}");
        }
    }
}

/// Reads one output line: an error naming `line_no`, or moves (and a path
/// when paths were asked for).
fn read_output(out: &str, line_no: u64, cfg: &BatchConfig) -> Result<Out, String> {
    if cfg.jsonl {
        let v: serde_json::Value =
            serde_json::from_str(out).map_err(|e| format!("not JSON ({e})"))?;
        if v["line"].as_u64() != Some(line_no) {
            return Err(format!("names line {} ", v["line"]));
        }
        if let Some(e) = v.get("error") {
            let msg = e.as_str().ok_or("error is not a string")?;
            assert_short("batch JSON error", msg, &out);
            return Ok(Out::Error);
        }
        let moves = v["moves"].as_i64().ok_or("no moves")?;
        if v["solvable"].as_bool() != Some(moves >= 0) || moves < -1 {
            return Err("moves and solvable disagree".into());
        }
        let path = match (cfg.opts.want_path, v.get("path")) {
            (false, None) => None,
            (true, Some(serde_json::Value::Null)) if moves < 0 => None,
            (true, Some(serde_json::Value::String(p))) if moves >= 0 => Some(p.clone()),
            (_, p) => return Err(format!("path {p:?} does not fit")),
        };
        return Ok(Out::Answer { moves, path });
    }
    if let Some(rest) = out.strip_prefix("error: line ") {
        let (n, _msg) = rest.split_once(": ").ok_or("error without a message")?;
        if n != line_no.to_string() {
            return Err(format!("error names line {n}"));
        }
        return Ok(Out::Error);
    }
    let (moves, path) = match out.split_once(' ') {
        Some((m, p)) => (m, Some(p.to_string())),
        None => (out, None),
    };
    let moves: i64 = moves.parse().map_err(|_| "not a number of moves")?;
    if moves < -1 {
        return Err("moves below -1".into());
    }
    match (&path, cfg.opts.want_path && moves >= 0) {
        (Some(p), true) if p.bytes().all(|b| b"UDLR".contains(&b)) => {}
        (None, false) => {}
        _ => return Err("path does not fit".into()),
    }
    Ok(Out::Answer { moves, path })
}

/// The batch runner's fast reader, where it accepts a line, reads what the
/// general reader does.
#[cfg(feature = "fuzzing")]
pub fn check_simple_reader(bytes: &[u8], text: &str, size: Option<Shape>) {
    for size in [size, None] {
        let Some((shape, start, goal)) = batch::fuzzing::simple_read(bytes, size) else {
            continue;
        };
        let general = Scan::new().start_and_goal(text, size);
        let (s, g) = general.unwrap_or_else(|e| {
            panic!("{text:?} (size {size:?}): the fast reader accepts it, the general one says {e}")
        });
        let what = format!("{text:?} (size {size:?})");
        assert_eq!(s.shape(), shape, "{what}");
        assert_eq!(s.tiles(), &start[..], "{what}");
        assert_eq!(g.map(|g| g.tiles().to_vec()), goal, "{what}");
    }
}

/// Without the `fuzzing` feature the fast reader is out of reach (its own
/// unit tests replay this target's corpus against the general reader).
#[cfg(not(feature = "fuzzing"))]
pub fn check_simple_reader(_bytes: &[u8], _text: &str, _size: Option<Shape>) {}
