//! Shared by the API tests: an independent answer (plain BFS) and a check
//! of a solve answer against it.

use npuzzle_server::Config;
use serde_json::{json, Value};
use std::collections::{HashMap, VecDeque};

/// The default server configuration with its pattern-database cache in a
/// fresh temporary directory (kept alive by the returned guard), so that no
/// test writes into the user's cache.
pub fn test_config() -> (Config, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let config = Config {
        pdb_dir: Some(dir.path().to_path_buf()),
        ..Config::default()
    };
    (config, dir)
}

/// Fewest moves by breadth-first search over whole boards: slow and plain,
/// sharing no code with the library's searches.
pub fn bfs_moves(rows: usize, cols: usize, start: &[u8], goal: &[u8]) -> Option<u32> {
    let mut dist: HashMap<Vec<u8>, u32> = HashMap::from([(start.to_vec(), 0)]);
    let mut queue = VecDeque::from([start.to_vec()]);
    while let Some(b) = queue.pop_front() {
        let d = dist[&b];
        if b == goal {
            return Some(d);
        }
        let z = b.iter().position(|&t| t == 0).unwrap();
        let (r, c) = (z / cols, z % cols);
        let mut next = Vec::new();
        if r > 0 {
            next.push(z - cols);
        }
        if r + 1 < rows {
            next.push(z + cols);
        }
        if c > 0 {
            next.push(z - 1);
        }
        if c + 1 < cols {
            next.push(z + 1);
        }
        for n in next {
            let mut s = b.clone();
            s.swap(z, n);
            if !dist.contains_key(&s) {
                dist.insert(s.clone(), d + 1);
                queue.push_back(s);
            }
        }
    }
    None
}

pub fn tiles(v: &Value) -> Vec<u8> {
    serde_json::from_value(v.clone()).unwrap()
}

/// Checks a solve answer: the boards follow the path one legal move at a
/// time from the start to the goal, and the length is BFS's.
pub fn check_report(r: &Value) {
    let (rows, cols) = (
        r["rows"].as_u64().unwrap() as usize,
        r["cols"].as_u64().unwrap() as usize,
    );
    let (start, goal) = (tiles(&r["start"]), tiles(&r["goal"]));
    let want = bfs_moves(rows, cols, &start, &goal);
    assert_eq!(r["moves"].as_i64(), Some(want.map_or(-1, i64::from)), "{r}");
    assert_eq!(r["solvable"], json!(want.is_some()));
    let Some(m) = want else {
        assert!(r["path"].is_null());
        return;
    };
    let path = r["path"].as_str().unwrap();
    assert_eq!(path.len(), m as usize);
    let boards: Vec<Vec<u8>> = serde_json::from_value(r["boards"].clone()).unwrap();
    assert_eq!(boards.len(), path.len() + 1);
    assert_eq!(boards[0], start);
    assert_eq!(boards[boards.len() - 1], goal);
    for (i, d) in path.chars().enumerate() {
        let z = boards[i].iter().position(|&t| t == 0).unwrap();
        let to = match d {
            'U' => z - cols,
            'D' => z + cols,
            'L' => z - 1,
            'R' => z + 1,
            _ => panic!("bad move {d}"),
        };
        let mut b = boards[i].clone();
        b.swap(z, to);
        assert_eq!(b, boards[i + 1], "move {} ({d})", i + 1);
    }
}
