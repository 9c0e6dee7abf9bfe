//! What a database is: the partition of a board's tiles into groups, and
//! the indexing of one group's placements (with the blank's region) into
//! entries.

pub(super) mod indexing;
pub(super) mod partition;
mod ranks;
