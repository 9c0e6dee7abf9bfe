//! `npuzzle serve`: the web page and JSON API (see `npuzzle_server`).

use super::{Failure, EXIT_BAD_INPUT};
use npuzzle::Bytes;
use npuzzle_server::{self as server, Config, ConfigError, PdbAllow};
use std::net::SocketAddr;

#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on. The default is this machine only; give
    /// 0.0.0.0:8080 to let others on the network in.
    #[arg(long, default_value = server::DEFAULT_ADDR, value_name = "HOST:PORT")]
    pub addr: SocketAddr,

    /// Longest time one request may take, in seconds, from its headers:
    /// its body, its wait for a search slot, database builds and the search
    /// (a request may ask for less).
    #[arg(long, value_name = "SECONDS", default_value_t = Config::DEFAULT_TIMEOUT.as_secs_f64())]
    pub timeout: f64,

    /// Most node expansions one IDA* search may make.
    #[arg(long, value_name = "N", default_value_t = Config::DEFAULT_MAX_NODES)]
    pub max_nodes: u64,

    /// Most states one BFS, bidirectional BFS or A* search may hold.
    #[arg(long, value_name = "N", default_value_t = Config::DEFAULT_MAX_STATES)]
    pub max_states: u64,

    /// Largest board searched, in cells.
    #[arg(long, value_name = "N", default_value_t = Config::DEFAULT_MAX_CELLS)]
    pub max_cells: usize,

    /// Largest board the fast solver answers (algorithm auto or fast), in
    /// cells (at most 256).
    #[arg(long, value_name = "N", default_value_t = Config::DEFAULT_MAX_FAST_CELLS as u64,
          value_parser = clap::value_parser!(u64).range(4..=256))]
    pub max_fast_cells: u64,

    /// Most events one /api/trace answer records (the page's Explore view
    /// replays them), at most 1,000,000.
    #[arg(long, value_name = "N", default_value_t = Config::DEFAULT_MAX_TRACE_EVENTS)]
    pub max_trace_events: usize,

    /// Pattern database cache directory (default: $XDG_CACHE_HOME/npuzzle).
    #[arg(long, value_name = "DIR")]
    pub pdb_dir: Option<std::path::PathBuf>,

    /// Most memory the pattern databases kept between requests may hold,
    /// e.g. 512M or 2G (least recently used dropped first).
    #[arg(long, value_name = "SIZE", value_parser = super::parse_size, default_value = "1G")]
    pub pdb_memory: u64,

    /// Most the pattern database cache directory may hold; a database that
    /// would pass it is used from memory and not saved.
    #[arg(long, value_name = "SIZE", value_parser = super::parse_size, default_value = "2G")]
    pub pdb_disk: u64,

    /// A board and partition whose pattern databases the server may load or
    /// build, e.g. 4x4:6-6-3 or 3x5:auto; repeat for more. Given, it replaces
    /// the default list (boards of at most 16 cells with their automatic
    /// partition, 5x5:5-5-5-5-4).
    #[arg(long, value_name = "BOARD:PARTITION")]
    pub pdb_allow: Vec<PdbAllow>,

    /// Most client connections open at once (fewer if the open-files limit
    /// is lower); more wait to be accepted.
    #[arg(long, value_name = "N", default_value_t = Config::DEFAULT_MAX_CONNECTIONS)]
    pub max_connections: usize,
}

pub fn run(args: ServeArgs) -> Result<u8, Failure> {
    let timeout = super::solve::parse_timeout(Some(args.timeout))?;
    let given_pdb_allow = !args.pdb_allow.is_empty();
    let mut config = Config {
        max_cells: args.max_cells,
        max_fast_cells: args.max_fast_cells as usize,
        max_trace_events: args.max_trace_events,
        pdb_dir: args.pdb_dir,
        pdb_memory: args.pdb_memory,
        pdb_disk: Some(args.pdb_disk),
        max_connections: args.max_connections,
        ..Config::default()
    };
    if !args.pdb_allow.is_empty() {
        config.pdb_allow = args.pdb_allow;
    }
    config.budget = config
        .budget
        .with_timeout(timeout)
        .with_max_nodes(args.max_nodes)
        .with_max_states(args.max_states);
    // Refused here, before binding, rather than on every request.
    config.validate().map_err(flag_error)?;
    if let Some(big) = given_pdb_allow
        .then(|| {
            config
                .pdb_allow
                .iter()
                .find(|a| a.shape.cells() > config.max_cells)
        })
        .flatten()
    {
        return Err(bad_input(format!(
            "--pdb-allow {big}: {} boards ({} cells) are beyond --max-cells {}, where only the \
             fast solver answers; raise --max-cells or leave the board out",
            big.shape,
            big.shape.cells(),
            config.max_cells
        )));
    }
    let limits = format!(
        "pattern databases: at most {} in memory, {} on disk",
        Bytes::from(config.pdb_memory),
        Bytes::from(args.pdb_disk)
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| anyhow::anyhow!("cannot start the server runtime: {e}"))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}", args.addr))?;
        let addr = listener.local_addr()?;
        println!("npuzzle serve: http://{addr}/  (Ctrl-C to stop)");
        println!("{limits}");
        if !addr.ip().is_loopback() {
            println!("note: listening on {addr}, reachable from other machines");
        }
        let shutdown = async {
            // If the signal handler cannot be installed, run until killed.
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
            println!("npuzzle serve: stopping (cancelling running searches)");
        };
        server::serve(listener, config, shutdown)
            .await
            .map_err(|e| anyhow::anyhow!("server error: {e}"))?;
        Ok::<u8, Failure>(0)
    })
}

/// A setting the server refuses, as the flag that gave it: every setting
/// this command sets is the flag of the same name (and the one setting a
/// reason names, the `max_cells` that `max_fast_cells` must reach).
fn flag_error(e: ConfigError) -> Failure {
    let flag = e.setting.replace('_', "-");
    let reason = e.reason.replace("max_cells", "--max-cells");
    bad_input(format!("--{flag} {}: {reason}", e.value))
}

fn bad_input(message: String) -> Failure {
    Failure {
        code: EXIT_BAD_INPUT,
        error: anyhow::anyhow!(message),
    }
}
