//! The whole-space search's integration tests, one binary.

mod space;
