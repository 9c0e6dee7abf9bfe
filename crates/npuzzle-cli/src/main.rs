//! The `npuzzle` command: a thin layer over the library (see `lib.rs`).

fn main() -> std::process::ExitCode {
    npuzzle_cli::main()
}
