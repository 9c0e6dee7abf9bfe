//! The core's integration tests, one binary: each module checks one part
//! against an independent answer (plain BFS over whole boards from
//! `npuzzle-testkit`, complete tables, published counts).

mod algorithms;
mod all_solutions;
mod checkpoint;
mod colour;
mod heavy;
mod ida;
mod large;
mod layering;
mod mtm;
mod partial;
mod pdb;
mod pdb_boards;
mod pdb_covers;
mod pdb_estimate;
mod pdb_forms;
mod properties;
mod suboptimal;
mod tables;
mod trace;
mod trace_events;
