//! The database files' tests: round trips, and every kind of damage.
use super::*;

fn key() -> Key {
    Key {
        rows: 3,
        cols: 3,
        goal: vec![1, 2, 3, 4, 5, 6, 7, 8, 0],
        tiles: vec![1, 2, 3],
        regions: false,
    }
}

fn path_header_len(key: &Key) -> usize {
    key.header(0, 0, 0, 0).len()
}

#[test]
fn round_trip_and_every_kind_of_damage() {
    let dir = tempfile::tempdir().unwrap();
    let data = Contents {
        data: (0..252u32).map(|i| (i % 7) as u8).collect(),
        entries: 504,
        max: 9,
        clamped: 0,
    };
    assert!(matches!(
        load(dir.path(), &key(), 504),
        Err(LoadError::Missing)
    ));
    let path = save(dir.path(), &key(), &data).unwrap();
    assert_eq!(load(dir.path(), &key(), 504).unwrap(), data);

    // corrupt one byte of the contents
    let mut bytes = fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    fs::write(&path, &bytes).unwrap();
    assert!(matches!(
        load(dir.path(), &key(), 504),
        Err(LoadError::Corrupt { .. })
    ));

    // truncate
    fs::write(&path, &bytes[..bytes.len() - 10]).unwrap();
    assert!(matches!(
        load(dir.path(), &key(), 504),
        Err(LoadError::Truncated { .. })
    ));
    fs::write(&path, &bytes[..5]).unwrap();
    assert!(matches!(
        load(dir.path(), &key(), 504),
        Err(LoadError::Truncated { .. })
    ));

    // the largest value is covered by the checksum too
    save(dir.path(), &key(), &data).unwrap();
    let mut bytes = fs::read(&path).unwrap();
    bytes[path_header_len(&key()) - 13] ^= 1;
    fs::write(&path, &bytes).unwrap();
    assert!(matches!(
        load(dir.path(), &key(), 504),
        Err(LoadError::Corrupt { .. })
    ));

    // a file of the previous format (version 2: a byte per entry)
    let mut v2 = fs::read(&path).unwrap();
    v2[8..12].copy_from_slice(&2u32.to_le_bytes());
    fs::write(&path, &v2).unwrap();
    assert!(matches!(
        load(dir.path(), &key(), 504),
        Err(LoadError::Format { .. })
    ));

    // a file for another goal under this name
    let mut other = key();
    other.goal = vec![0, 1, 2, 3, 4, 5, 6, 7, 8];
    let other_path = save(dir.path(), &other, &data).unwrap();
    fs::rename(other_path, &path).unwrap();
    assert!(matches!(
        load(dir.path(), &key(), 504),
        Err(LoadError::Mismatch { .. })
    ));

    // garbage
    fs::write(&path, b"hello, this is not a database at all").unwrap();
    assert!(matches!(
        load(dir.path(), &key(), 504),
        Err(LoadError::Format { .. })
    ));

    save(dir.path(), &key(), &data).unwrap();
    let listed = list(dir.path()).unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].tiles, vec![1, 2, 3]);
    assert_eq!(listed[0].entries, 504);
    assert_eq!(load(dir.path(), &key(), 504).unwrap(), data);
    // no temporary files left behind
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
}
