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
