//! Reading databases: one group's database and its lookups, the compact
//! form's walk to the goal, the dual lookups, and a file read into memory.

mod compact;
pub(super) mod db;
pub(super) mod dual;
pub(super) mod sink;
