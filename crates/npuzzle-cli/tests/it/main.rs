//! The `npuzzle` command's integration tests, one binary: the command run
//! as a user runs it (`support::cli`), and the fuzz targets' findings.

mod batch;
mod budgets;
mod cli_checkpoint;
mod cli_compare;
mod cli_fast;
mod cli_metric;
mod cli_moves;
mod cli_partial;
mod cli_pdb;
mod cli_pdb_score;
mod cli_plan;
mod cli_robust;
mod cli_solve;
mod cli_sweep;
mod cli_trace;
mod cluster_solve;
mod fuzz_regressions;
mod lists;
mod readme;
mod results_24;
mod server;
mod server_config;
mod space_cli;
mod space_cluster;
mod support {
    pub mod cli;
    pub mod ports;
    pub mod procs;
}
