//! `--checkpoint FILE [--checkpoint-every SECONDS] [--resume]` on `solve`
//! and `bench`: IDA* saves its place now and then and goes on from it.

use super::Failure;
use npuzzle::{Checkpointing, ErrorKind, SearchError};
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args, Debug, Clone, Default)]
pub struct CheckpointArgs {
    /// Save IDA*'s place to FILE now and then (through FILE.tmp), so that a
    /// search that is killed goes on with --resume; removed once the
    /// search has its answer.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,

    /// Seconds between two checkpoints (one is also written when the
    /// search starts and when a budget or Ctrl-C stops it).
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub checkpoint_every: f64,

    /// Go on from the --checkpoint file (refused if it is damaged or of
    /// another search: board, goal, heuristic, databases, metric).
    #[arg(long, requires = "checkpoint")]
    pub resume: bool,
}

impl CheckpointArgs {
    /// The library's checkpointing for these arguments.
    pub fn checkpointing(&self) -> Result<Option<Checkpointing>, Failure> {
        let Some(path) = &self.checkpoint else {
            return Ok(None);
        };
        let every = Duration::try_from_secs_f64(self.checkpoint_every).map_err(|_| Failure {
            code: super::EXIT_BAD_INPUT,
            error: anyhow::anyhow!(
                "--checkpoint-every {}: not a number of seconds",
                self.checkpoint_every
            ),
        })?;
        Ok(Some(Checkpointing::new(path, every).resuming(self.resume)))
    }

    /// Refuses the flags where no checkpoint is kept (`what` says where).
    pub fn refuse(&self, what: &str) -> Result<(), Failure> {
        match &self.checkpoint {
            Some(_) => Err(Failure {
                code: super::EXIT_BAD_INPUT,
                error: anyhow::anyhow!("--checkpoint is for IDA*'s one answer; {what} keeps none"),
            }),
            None => Ok(()),
        }
    }

    /// After a search stopped by a budget or Ctrl-C with a checkpoint
    /// kept: how to go on.
    pub fn after(&self, e: &SearchError) {
        if let Some(path) = &self.checkpoint {
            if matches!(e.kind(), ErrorKind::Budget | ErrorKind::Cancelled) && path.exists() {
                eprintln!(
                    "npuzzle: the search is saved in {}; the same command with --resume goes on from it",
                    path.display()
                );
            }
        }
    }
}
