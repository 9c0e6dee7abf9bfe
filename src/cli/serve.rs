//! `npuzzle serve`: the web page and JSON API (see `npuzzle::server`).

use super::Failure;
use npuzzle::server::{self, Config};
use std::net::SocketAddr;

#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on. The default is this machine only; give
    /// 0.0.0.0:8080 to let others on the network in.
    #[arg(long, default_value = server::DEFAULT_ADDR, value_name = "HOST:PORT")]
    pub addr: SocketAddr,

    /// Longest time one search may take, in seconds (a request may ask for less).
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

    /// Pattern database cache directory (default: $XDG_CACHE_HOME/npuzzle).
    #[arg(long, value_name = "DIR")]
    pub pdb_dir: Option<std::path::PathBuf>,
}

pub fn run(args: ServeArgs) -> Result<u8, Failure> {
    let timeout = super::solve::parse_timeout(Some(args.timeout))?;
    let mut config = Config {
        max_cells: args.max_cells,
        pdb_dir: args.pdb_dir,
        ..Config::default()
    };
    config.budget = config
        .budget
        .with_timeout(timeout)
        .with_max_nodes(args.max_nodes)
        .with_max_states(args.max_states);
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
