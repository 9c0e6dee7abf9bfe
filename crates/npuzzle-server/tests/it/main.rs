//! The server's integration tests, one binary (the browser tests are
//! `tests/e2e.rs`: their harness marks them ignored at run time when no
//! browser is installed, which the standard harness cannot).

mod server_analyse;
mod server_metric;
mod server_moves;
mod server_pdb;
mod server_socket;
mod server_trace;
