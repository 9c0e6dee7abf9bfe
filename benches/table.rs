//! Complete tables: building one 3×3 table, and one query (with and without
//! the path).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use npuzzle::board::{parse_board, Shape};
use npuzzle::table::{DistanceTable, TableSet};

fn tables(c: &mut Criterion) {
    let shape = Shape::new(3, 3);
    c.bench_function("build 3x3 table (one goal-blank cell)", |b| {
        b.iter(|| DistanceTable::build(black_box(shape), black_box(4)));
    });
    c.bench_function("build 2x5 table (one goal-blank cell)", |b| {
        b.iter(|| DistanceTable::build(black_box(Shape::new(2, 5)), black_box(0)));
    });
    let start = parse_board("2 6 4 1 3 7 0 5 8", None).unwrap();
    let goal = parse_board("8 1 5 7 3 6 4 0 2", None).unwrap();
    let set = TableSet::global();
    set.table(shape, goal.blank());
    c.bench_function("3x3 query, 31 moves, length only", |b| {
        b.iter(|| set.distance(shape, black_box(start.tiles()), black_box(goal.tiles())));
    });
    c.bench_function("3x3 query, 31 moves, with path", |b| {
        b.iter(|| set.path(shape, black_box(start.tiles()), black_box(goal.tiles())));
    });
}

criterion_group!(benches, tables);
criterion_main!(benches);
