//! Which pattern databases the server loads or builds, and how many bytes
//! of them it keeps.
//!
//! A new goal needs its own databases, and a client chooses goals freely,
//! so every build is a cost a client can impose. Three limits bound it:
//! builds only for the boards and partitions on the allow-list
//! ([`Config::pdb_allow`]), each inside its request's budget (its deadline
//! and cancel flag: a client that goes away stops the build, and a stopped
//! build keeps nothing); loaded databases in the server's own memory cache,
//! least recently used dropped beyond [`Config::pdb_memory`]; and no save
//! past the disk cap [`Config::pdb_disk`].

use super::Config;
use npuzzle::pdb::{PartitionSpec, PdbCache, PdbOptions};
use npuzzle::rank::partial_count;
use npuzzle::Shape;
use serde_json::{json, Value};
use std::sync::Arc;

/// Largest pattern database (entries per tile group) a request may build,
/// whatever the allow-list says: a build must finish within one request's
/// time budget to be of any use, and the 6-6-3 databases of the 15-puzzle
/// (5.8 M entries each) take a few seconds, while the 6-6-6-6 of the
/// 24-puzzle (127 M each) would take about ten minutes.
pub(crate) const PDB_MAX_ENTRIES: u64 = 1 << 23;

/// The board's usual partition when every group fits [`PDB_MAX_ENTRIES`],
/// else even groups of the largest size that fits (5-5-5-5-4 on 5×5).
pub(crate) fn server_partition(shape: Shape) -> PartitionSpec {
    let n = shape.cells();
    let fits = |k: usize| partial_count(n, k).is_some_and(|c| c <= PDB_MAX_ENTRIES);
    if PartitionSpec::auto_sizes(shape, PDB_MAX_ENTRIES)
        .into_iter()
        .all(fits)
    {
        return PartitionSpec::Auto;
    }
    let tiles = n - 1;
    let mut k = 1;
    while k < tiles && fits(k + 1) {
        k += 1;
    }
    let groups = tiles.div_ceil(k);
    PartitionSpec::Sizes(
        (0..groups)
            .map(|g| tiles / groups + usize::from(g < tiles % groups))
            .collect(),
    )
}

/// The pattern-database options of a request on a board of `shape`: the
/// allow-listed partition, the server's memory cache and disk cap.
pub(crate) fn options(config: &Config, cache: &Arc<PdbCache>, shape: Shape) -> PdbOptions {
    PdbOptions::default()
        .with_partition(
            config
                .pdb_partition(shape)
                .cloned()
                .unwrap_or(PartitionSpec::Auto),
        )
        .with_max_entries(PDB_MAX_ENTRIES)
        .with_dir(config.pdb_dir.clone())
        .with_memory_cache(cache.clone())
        .with_max_disk(config.pdb_disk)
}

/// Why a board gets no pattern databases here.
pub(crate) fn not_allowed(shape: Shape) -> String {
    format!("pattern databases for {shape} boards are not on this server's allow-list (see /api/health)")
}

/// The `pdb` part of `/api/health`.
pub(crate) fn health(config: &Config, cache: &PdbCache) -> Value {
    let dir = config
        .pdb_dir
        .clone()
        .unwrap_or_else(npuzzle::pdb::default_dir);
    let disk: u64 = npuzzle::pdb::list(&dir).map_or(0, |files| files.iter().map(|f| f.bytes).sum());
    json!({
        "allow": config.pdb_allow.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "memory_bytes": cache.bytes(),
        "memory_cap": config.pdb_memory,
        "databases": cache.len(),
        "disk_bytes": disk,
        "disk_cap": config.pdb_disk,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_partitions_fit_the_cap() {
        assert_eq!(server_partition(Shape::new(4, 4)), PartitionSpec::Auto);
        assert_eq!(server_partition(Shape::new(3, 3)), PartitionSpec::Auto);
        assert_eq!(
            server_partition(Shape::new(5, 5)),
            PartitionSpec::Sizes(vec![5, 5, 5, 5, 4])
        );
        for (r, c) in [(4, 5), (5, 4), (3, 5), (5, 5)] {
            let shape = Shape::new(r, c);
            let sizes = match server_partition(shape) {
                PartitionSpec::Sizes(s) => s,
                PartitionSpec::Auto => PartitionSpec::auto_sizes(shape, PDB_MAX_ENTRIES),
                other => panic!("{other:?}"),
            };
            assert_eq!(sizes.iter().sum::<usize>(), r * c - 1);
            for k in sizes {
                assert!(partial_count(r * c, k).unwrap() <= PDB_MAX_ENTRIES);
            }
        }
    }
}
