//! Ports for the tests that start several processes on 127.0.0.1.
//!
//! Asking the kernel for port 0 and handing the number on is racy: the
//! listener is closed before the process under test binds it, so another
//! test asking for port 0, or any outgoing connection (whose source port
//! comes from the same ephemeral range), may take the number first, and
//! then one test's process meets another test's. Ports here come from
//! below the ephemeral range, each handed out once per test binary, and
//! are checked free when handed out.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

/// The lowest port the kernel hands to outgoing connections (Linux's
/// `ip_local_port_range`; 32768 where it cannot be read).
fn ephemeral_low() -> u32 {
    std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(32768)
}

/// `n` distinct ports on 127.0.0.1, free when asked and never handed out
/// before by this test binary.
pub fn free_ports(n: usize) -> Vec<u16> {
    static NEXT: OnceLock<AtomicU32> = OnceLock::new();
    let high = ephemeral_low().clamp(12_000, 65_536);
    let low = 10_000u32;
    // Two test binaries run at once (rare) start far apart.
    let start = low + (std::process::id() * 997) % (high - low);
    let next = NEXT.get_or_init(|| AtomicU32::new(start));
    let mut out = Vec::with_capacity(n);
    for _ in 0..(high - low) {
        if out.len() == n {
            break;
        }
        let p = low + (next.fetch_add(1, Ordering::Relaxed) - low) % (high - low);
        if let Ok(port) = u16::try_from(p) {
            if TcpListener::bind(("127.0.0.1", port)).is_ok() {
                out.push(port);
            }
        }
    }
    assert_eq!(out.len(), n, "{n} free ports below {high}");
    out
}

/// A hostfile of `n` fresh addresses in `dir`; returns its path and the
/// addresses.
pub fn hostfile(dir: &Path, n: usize) -> (PathBuf, Vec<String>) {
    let addresses: Vec<String> = free_ports(n)
        .into_iter()
        .map(|p| format!("127.0.0.1:{p}"))
        .collect();
    let path = dir.join("hosts");
    std::fs::write(&path, addresses.join("\n") + "\n").unwrap();
    (path, addresses)
}
