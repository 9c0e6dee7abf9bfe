//! The options that run a command on timely dataflow across processes
//! (`space` and `solve`): the engine, the processes and where they are.

use super::{Failure, EXIT_BAD_INPUT};
use npuzzle_space::cluster::{self, Cluster};
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args, Debug, Clone)]
pub struct ClusterArgs {
    /// local: this process alone; timely: timely-dataflow workers, in one
    /// process or across --processes.
    #[arg(long, value_enum, default_value = "local")]
    pub engine: Engine,
    /// timely: number of processes (at most 1024).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = at_least_one)]
    pub processes: usize,
    /// timely: this process's number, 0..processes.
    #[arg(long, value_name = "I", default_value_t = 0)]
    pub process: usize,
    /// timely: a file of host:port lines, one per process, in order; blank
    /// lines and lines starting with # are skipped (default localhost:2101,
    /// localhost:2102, ...).
    #[arg(long, value_name = "FILE")]
    pub hostfile: Option<PathBuf>,
    /// timely: report connection progress on stderr.
    #[arg(long)]
    pub report: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Local,
    Timely,
}

pub fn at_least_one(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("'{text}' is not a count of at least 1")),
    }
}

fn bad(error: anyhow::Error) -> Failure {
    Failure {
        code: EXIT_BAD_INPUT,
        error,
    }
}

impl ClusterArgs {
    /// Refuses the timely engine's flags with the local engine, and a
    /// process number beyond the processes.
    pub fn check(&self) -> Result<(), Failure> {
        if self.engine == Engine::Local {
            let timely_only = [
                (self.processes != 1, "--processes"),
                (self.process != 0, "--process"),
                (self.hostfile.is_some(), "--hostfile"),
                (self.report, "--report"),
            ];
            if let Some((_, flag)) = timely_only.iter().find(|(given, _)| *given) {
                return Err(bad(anyhow::anyhow!(
                    "{flag} is an option of --engine timely; the local engine runs in one process"
                )));
            }
        }
        if self.process >= self.processes {
            return Err(bad(anyhow::anyhow!(
                "--process {} is not below --processes {} (processes are numbered from 0)",
                self.process,
                self.processes
            )));
        }
        Ok(())
    }

    /// The cluster these options describe, `workers` a process; the wait
    /// for the peers ends at `connect_limit` (or the cancel flag).
    pub fn cluster(
        &self,
        workers: usize,
        connect_limit: Option<Duration>,
    ) -> Result<Cluster, Failure> {
        let addresses = match &self.hostfile {
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| Failure {
                    code: 1,
                    error: anyhow::anyhow!("cannot read {}: {e}", path.display()),
                })?;
                cluster::parse_hostfile(&text, self.processes)
                    .map_err(|e| bad(anyhow::anyhow!("--hostfile {}: {e}", path.display())))?
            }
            None => Vec::new(),
        };
        Ok(Cluster {
            workers,
            processes: self.processes,
            process: self.process,
            addresses,
            connect_limit,
        })
    }
}

/// Workers a process: as asked, at most every core (`command` names who
/// says so), every core by default.
pub fn workers(asked: Option<usize>, command: &str) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    match asked {
        Some(n) if n > cores => {
            eprintln!(
                "npuzzle: {command}: --workers {n} is more than this machine's {cores} cores; \
                 using {cores}"
            );
            cores
        }
        Some(n) => n,
        None => cores,
    }
}
