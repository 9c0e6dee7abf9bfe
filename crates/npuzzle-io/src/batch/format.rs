//! Output lines of a batch, appended to a reused buffer.
//!
//! Plain: `moves` (or `-1`); with a path, `moves UDLR…` (a reachable goal
//! always has the space, even for an empty path), written in the
//! configured notation and, in MTM, a push with its count; an error is
//! `error: line N: message`. An answer not proven optimal is written
//! `~moves` (`~58`, `~58 UDLR…`), so that a script reading the fewest moves
//! as a number stops at it instead of taking it for the fewest.
//!
//! JSON lines: `{"line":N,"moves":M,"solvable":true,"optimal":true}` plus
//! `"path"` when paths were asked for, `"lower_bound"` and `"ratio"` for an
//! answer not proven optimal, or `{"line":N,"error":"…"}`.

use super::{Answer, BatchConfig, LineError};
use npuzzle::{format_moves, Dir, Metric, Notation};
use serde::Serialize;

/// Appends `path` as the configuration writes paths.
fn push_path(out: &mut Vec<u8>, path: &[Dir], cfg: &BatchConfig) {
    let metric = cfg.opts.metric;
    if cfg.notation == Notation::Blank && metric == Metric::Stm && !cfg.spaced {
        // the common case, a letter a step, without a String per line
        out.extend(path.iter().map(|d| d.letter() as u8));
    } else {
        out.extend_from_slice(format_moves(path, cfg.notation, metric, cfg.spaced).as_bytes());
    }
}

/// Appends the decimal digits of `n`.
#[inline]
pub fn push_u64(out: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

#[derive(Serialize)]
struct JsonAnswer<'a> {
    line: u64,
    moves: i64,
    solvable: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    optimal: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lower_bound: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ratio: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<Option<&'a str>>,
}

#[derive(Serialize)]
struct JsonError {
    line: u64,
    error: String,
}

/// Appends the output line for an answer.
pub fn write_answer(out: &mut Vec<u8>, line: u64, answer: &Answer, cfg: &BatchConfig) {
    let moves = answer
        .moves
        .map(|m| u64::from(m) + u64::from(cfg.count_start));
    let lower = answer
        .lower_bound
        .map(|l| u64::from(l) + u64::from(cfg.count_start));
    if cfg.jsonl {
        let path_text: String;
        let path = match (&answer.path, cfg.opts.want_path) {
            (_, false) => None,
            (None, true) => Some(None),
            (Some(p), true) => {
                path_text = format_moves(p, cfg.notation, cfg.opts.metric, cfg.spaced);
                Some(Some(path_text.as_str()))
            }
        };
        let obj = JsonAnswer {
            line,
            moves: moves.map_or(-1, |m| m as i64),
            solvable: moves.is_some(),
            optimal: moves.map(|_| lower.is_none()),
            lower_bound: lower,
            ratio: match (moves, lower) {
                (Some(m), Some(l)) if l > 0 => Some(m as f64 / l as f64),
                _ => None,
            },
            path,
        };
        // Serialising plain data into a Vec cannot fail.
        let _ = serde_json::to_writer(&mut *out, &obj);
        out.push(b'\n');
        return;
    }
    match moves {
        Some(m) => {
            if lower.is_some() {
                out.push(b'~');
            }
            push_u64(out, m);
            if cfg.opts.want_path {
                out.push(b' ');
                if let Some(p) = &answer.path {
                    push_path(out, p, cfg);
                }
            }
        }
        None => out.extend_from_slice(b"-1"),
    }
    out.push(b'\n');
}

/// Appends the output line for a line that got no answer.
pub fn write_error(out: &mut Vec<u8>, line: u64, error: &LineError, jsonl: bool) {
    if jsonl {
        let obj = JsonError {
            line,
            error: error.to_string(),
        };
        let _ = serde_json::to_writer(&mut *out, &obj);
        out.push(b'\n');
        return;
    }
    use std::io::Write;
    // Writing into a Vec cannot fail.
    let _ = writeln!(out, "error: line {line}: {error}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        for n in [0u64, 7, 10, 99, 12345, u64::MAX] {
            let mut v = Vec::new();
            push_u64(&mut v, n);
            assert_eq!(String::from_utf8(v).unwrap(), n.to_string());
        }
    }

    #[test]
    fn plain_and_json_lines() {
        let mut cfg = BatchConfig::default();
        let a = Answer {
            moves: Some(2),
            path: Some(vec![Dir::Up, Dir::Left]),
            lower_bound: None,
        };
        let none = Answer {
            moves: None,
            path: None,
            lower_bound: None,
        };
        let rough = Answer {
            moves: Some(10),
            path: None,
            lower_bound: Some(8),
        };
        let mut out = Vec::new();
        write_answer(&mut out, 1, &a, &cfg);
        write_answer(&mut out, 2, &none, &cfg);
        cfg.opts.want_path = true;
        cfg.count_start = true;
        write_answer(&mut out, 3, &a, &cfg);
        write_answer(&mut out, 4, &none, &cfg);
        cfg.jsonl = true;
        write_answer(&mut out, 5, &a, &cfg);
        write_answer(&mut out, 6, &none, &cfg);
        cfg.opts.want_path = false;
        write_answer(&mut out, 7, &a, &cfg);
        write_error(&mut out, 8, &LineError::NotUtf8, true);
        write_error(&mut out, 9, &LineError::NotUtf8, false);
        write_answer(&mut out, 10, &rough, &cfg);
        cfg.jsonl = false;
        write_answer(&mut out, 11, &rough, &cfg);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "2\n-1\n3 UL\n-1\n\
             {\"line\":5,\"moves\":3,\"solvable\":true,\"optimal\":true,\"path\":\"UL\"}\n\
             {\"line\":6,\"moves\":-1,\"solvable\":false,\"path\":null}\n\
             {\"line\":7,\"moves\":3,\"solvable\":true,\"optimal\":true}\n\
             {\"line\":8,\"error\":\"the line is not valid UTF-8\"}\n\
             error: line 9: the line is not valid UTF-8\n\
             {\"line\":10,\"moves\":11,\"solvable\":true,\"optimal\":false,\"lower_bound\":9,\"ratio\":1.2222222222222223}\n\
             ~11\n"
        );
    }
}
