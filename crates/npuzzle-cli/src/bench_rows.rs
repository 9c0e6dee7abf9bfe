//! `bench --checkpoint FILE`: the instances finished so far, kept in
//! `FILE.rows` (one JSON object a line, rewritten through a temporary file
//! and a rename after each instance), so that `--resume` prints them again
//! and goes on with the instance whose search `FILE` holds.

use super::Failure;
use npuzzle_io::instances::Instance;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One finished instance, as its line of the table says.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub number: usize,
    /// The instance's start, to refuse rows of another file.
    pub start: Vec<u8>,
    pub moves: Option<u32>,
    pub optimal: bool,
    pub expanded: u64,
    pub generated: u64,
    pub seconds: f64,
}

/// Where the rows of the checkpoint `path` are kept.
pub fn rows_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".rows");
    PathBuf::from(s)
}

/// The rows saved beside `path`, each checked against the instance of its
/// number among `chosen` (none saved yet: none).
pub fn read(path: &Path, chosen: &[Instance]) -> Result<Vec<Row>, Failure> {
    let file = rows_path(path);
    let text = match std::fs::read_to_string(&file) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(fail(1, format!("cannot read {}: {e}", file.display()))),
    };
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let bad = |why: String| fail(2, format!("{} line {}: {why}", file.display(), i + 1));
        let row: Row = serde_json::from_str(line).map_err(|e| bad(format!("damaged: {e}")))?;
        let Some(inst) = chosen.iter().find(|c| c.number == row.number) else {
            return Err(bad(format!(
                "instance {} is not among the instances chosen",
                row.number
            )));
        };
        if inst.start.tiles() != row.start {
            return Err(bad(format!(
                "instance {} of this file has another start: the rows are of another benchmark",
                row.number
            )));
        }
        rows.push(row);
    }
    Ok(rows)
}

/// Saves `rows` beside `path`.
pub fn write(path: &Path, rows: &[Row]) -> Result<(), Failure> {
    let file = rows_path(path);
    let mut tmp = file.clone().into_os_string();
    tmp.push(".tmp");
    let mut text = String::new();
    for r in rows {
        let line = serde_json::to_string(r).map_err(|e| fail(1, e.to_string()))?;
        text.push_str(&line);
        text.push('\n');
    }
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, &file))
        .map_err(|e| fail(1, format!("cannot write {}: {e}", file.display())))
}

/// Removes the rows of a benchmark that has finished.
pub fn remove(path: &Path) {
    let _ = std::fs::remove_file(rows_path(path));
}

fn fail(code: u8, msg: String) -> Failure {
    Failure {
        code,
        error: anyhow::anyhow!(msg),
    }
}
