//! Helpers shared by the targets' checks.

use npuzzle::board::Shape;
use std::path::Path;

/// Shapes a target picks from its selector byte: none (the text decides),
/// and a few the parsers treat specially (square, wide, tall, largest).
pub const SIZES: [Option<(usize, usize)>; 8] = [
    None,
    Some((2, 2)),
    Some((3, 3)),
    Some((2, 4)),
    Some((4, 4)),
    Some((3, 2)),
    Some((5, 5)),
    Some((16, 16)),
];

/// The size chosen by `selector`.
pub fn size(selector: u8) -> Option<Shape> {
    SIZES[usize::from(selector) % SIZES.len()].map(|(r, c)| Shape::new(r, c))
}

/// Splits the fuzzer's bytes into a selector byte and the rest.
pub fn split(data: &[u8]) -> (u8, &[u8]) {
    match data.split_first() {
        Some((&s, rest)) => (s, rest),
        None => (0, data),
    }
}

/// A message shown to a user must not carry raw control characters (a
/// terminal would act on them).
pub fn assert_printable(what: &str, message: &str, input: &impl std::fmt::Debug) {
    assert!(
        !message.chars().any(char::is_control),
        "{what}: control character in {message:?} (input {input:?})"
    );
}

/// A message of the library must also stay short whatever the input (it
/// quotes the user's text cut short).
pub fn assert_short(what: &str, message: &str, input: &impl std::fmt::Debug) {
    assert_printable(what, message, input);
    assert!(
        message.len() <= 1024,
        "{what}: a {}-byte message (input {input:?})",
        message.len()
    );
}

/// A temporary directory, in memory where the system has one (each input
/// writes a file: a disk's file system would halve the fuzzer's speed).
///
/// libFuzzer ends the process without dropping thread-locals, so the
/// directory of a finished run stays behind: its name carries the process
/// id, and the directories of processes gone are removed here first.
pub fn tempdir(prefix: &str) -> tempfile::TempDir {
    let shm = Path::new("/dev/shm");
    let base = if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    };
    remove_stale(&base, prefix);
    let prefix = format!("{prefix}{}-", std::process::id());
    tempfile::Builder::new()
        .prefix(&prefix)
        .tempdir_in(&base)
        .or_else(|_| tempfile::Builder::new().prefix(&prefix).tempdir())
        .expect("a temporary directory")
}

/// Removes the directories `PREFIX<pid>-…` of `base` whose process is gone.
fn remove_stale(base: &Path, prefix: &str) {
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let pid = name
            .to_str()
            .and_then(|n| n.strip_prefix(prefix))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok());
        if let Some(pid) = pid {
            if !Path::new("/proc").join(pid.to_string()).exists() {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
}
