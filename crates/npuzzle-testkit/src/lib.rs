//! Test helpers shared by the workspace's crates, written once: plain
//! breadth-first search over whole boards (no ranking, no tables: an
//! answer independent of the code under test), random boards and walks,
//! the published whole-space distributions, and (feature `server`) a
//! server configuration and checks of the API's reports.

#[cfg(feature = "server")]
pub mod api;
pub mod published;
pub mod reference;

pub use reference::{all_boards, bfs_all, random_board, random_walk, rng};
