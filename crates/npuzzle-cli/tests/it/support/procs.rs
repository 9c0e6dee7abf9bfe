//! Processes the tests start and must not outlive: waited for with a
//! limit, killed past it.

use std::process::{Child, Output};
use std::time::{Duration, Instant};

/// Waits for a child at most `limit`, killing it past that.
pub fn wait(mut child: Child, limit: Duration) -> Output {
    let t0 = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t0.elapsed() > limit {
            let _ = child.kill();
            panic!("a process ran longer than {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Process `i` of `n` of `npuzzle COMMAND --engine timely ... ARGS` on the
/// hostfile `hosts`, its output piped.
pub fn cluster_process(
    command: &[&str],
    hosts: &std::path::Path,
    n: usize,
    i: usize,
    args: &[&str],
) -> Child {
    super::cli::npuzzle_process()
        .args(command)
        .args(["--engine", "timely", "--hostfile"])
        .arg(hosts)
        .args(["--processes", &n.to_string(), "--process", &i.to_string()])
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}
