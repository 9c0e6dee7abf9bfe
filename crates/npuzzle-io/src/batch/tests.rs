use super::*;
use crate::random::{Generator, Mode};
use npuzzle::parse_path;
use npuzzle::verify_path;
use std::collections::{HashMap, VecDeque};

fn cfg(want_path: bool) -> BatchConfig {
    let mut c = BatchConfig::default();
    c.opts.want_path = want_path;
    c
}

/// Distances to `goal` from every board, by a plain BFS over tile vectors
/// (independent of the tables, the ranking and the canonical relabelling).
fn bfs_from(goal: &Board) -> HashMap<Vec<u8>, u32> {
    let mut dist = HashMap::new();
    dist.insert(goal.tiles().to_vec(), 0);
    let mut queue = VecDeque::from([goal.clone()]);
    while let Some(b) = queue.pop_front() {
        let d = dist[b.tiles()];
        for dir in Dir::ALL {
            if let Some(n) = b.moved(dir) {
                if !dist.contains_key(n.tiles()) {
                    dist.insert(n.tiles().to_vec(), d + 1);
                    queue.push_back(n);
                }
            }
        }
    }
    dist
}

#[test]
fn one_line_per_instance_in_order() {
    let input = "\
# a comment
1 2 3 4 5 6 7 8 0

1 2 3 4 5 6 7 0 8
2 1 3 4 5 6 7 8 0
1 2 3 4 5 6 7 8 8
   # indented comment
283164705 | 123804765
2 6 4 1 3 7 0 5 8 8 1 5 7 3 6 4 0 2
garbage
1 2 3 4 5 6 0 7 | spiral
1 2 3 0 | 1 2 0 3
";
    let (out, tally) = answer_text(input, &cfg(false), Shard::ALL);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 9, "{out}");
    assert_eq!(lines[0], "0");
    assert_eq!(lines[1], "1");
    assert_eq!(lines[2], "-1");
    assert!(lines[3].starts_with("error: line 6: "), "{}", lines[3]);
    assert_eq!(lines[4], "5"); // 6 when the start is counted as a step
    assert_eq!(lines[5], "31"); // start and goal as 2·n numbers
    assert!(
        lines[6].starts_with("error: line 10: start board"),
        "{}",
        lines[6]
    );
    assert!(
        lines[7].starts_with("error: line 11: start board: cannot infer"),
        "{}",
        lines[7]
    );
    assert_eq!(lines[8], "1");
    assert_eq!(
        tally,
        Tally {
            answered: 6,
            unreachable: 1,
            errors: 3
        }
    );
}

#[test]
fn paths_json_and_count_start() {
    let input = "283164705 | 123804765\n1 2 3 4 5 6 7 8 0\n2 1 3 4 5 6 7 8 0\nnope\n";
    let mut c = cfg(true);
    let (out, _) = answer_text(input, &c, Shard::ALL);
    let lines: Vec<&str> = out.lines().collect();
    let (m, p) = lines[0].split_once(' ').unwrap();
    assert_eq!(m, "5");
    let start = npuzzle::parse_board("283164705", None).unwrap();
    let goal = npuzzle::parse_board("123804765", None).unwrap();
    assert!(verify_path(&start, &goal, &parse_path(p).unwrap()));
    assert_eq!(lines[1], "0 ");
    assert_eq!(lines[2], "-1");
    c.jsonl = true;
    c.count_start = true;
    let (out, _) = answer_text(input, &c, Shard::ALL);
    let objs: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objs[0]["line"], 1);
    assert_eq!(objs[0]["moves"], 6); // 5 moves, the start counted as a step
    assert_eq!(objs[0]["path"].as_str().unwrap().len(), 5);
    assert_eq!(objs[2]["solvable"], false);
    assert_eq!(objs[2]["moves"], -1);
    assert_eq!(objs[3]["line"], 4);
    assert!(objs[3]["error"].as_str().unwrap().contains("nope"));
}

#[test]
fn default_goal_size_and_other_algorithms() {
    let mut c = cfg(false);
    c.goal = GoalSpec::BlankFirst;
    c.size = Some(Shape::new(2, 4));
    let (out, _) = answer_text(
        "1 0 2 3 4 5 6 7\n1 2 3 4 5 6 7 0 | 1 2 3 4 5 6 0 7\n",
        &c,
        Shard::ALL,
    );
    assert_eq!(out, "1\n1\n");
    // an algorithm without a table goes through search::solve, per line
    c.opts.algorithm = Algorithm::Bfs;
    let (out, tally) = answer_text("1 0 2 3 4 5 6 7\n", &c, Shard::ALL);
    assert_eq!(out.lines().count(), 1);
    assert_eq!(tally.lines(), 1);
    // a 4x4 line with the table algorithm is that line's error
    c.opts.algorithm = Algorithm::Table;
    c.size = None;
    let (out, tally) = answer_text(
        "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n0 1 2 3\n",
        &c,
        Shard::ALL,
    );
    assert!(out.starts_with("error: line 1: "), "{out}");
    assert!(out.ends_with("\n0\n"), "{out}");
    assert_eq!(tally.errors, 1);
}

fn random_pairs(shape: Shape, seed: u64, count: usize) -> String {
    let mut g = Generator::new(Board::blank_last(shape).unwrap(), Mode::Pairs, seed, true);
    let mut out = Vec::new();
    for _ in 0..count {
        g.write_line(&mut out);
    }
    String::from_utf8(out).unwrap()
}

#[test]
fn random_pairs_agree_with_tables_and_paths_verify() {
    for (shape, size) in [
        (Shape::new(3, 3), None),
        (Shape::new(2, 4), Some(Shape::new(2, 4))),
    ] {
        let input = random_pairs(shape, 42, 3000);
        let mut c = cfg(true);
        c.size = size;
        let (out, tally) = answer_text(&input, &c, Shard::ALL);
        assert_eq!(tally.errors, 0);
        let (plain, _) = answer_text(&input, &BatchConfig { size, ..cfg(false) }, Shard::ALL);
        let mut scan = Scan::new();
        for ((line, answer), moves_only) in input.lines().zip(out.lines()).zip(plain.lines()) {
            let (s, g) = scan.start_and_goal(line, size).unwrap();
            let g = g.unwrap();
            let want = TableSet::global().distance(shape, s.tiles(), g.tiles());
            if !s.can_reach(&g) {
                assert_eq!(answer, "-1");
                assert_eq!(moves_only, "-1");
                assert_eq!(want, None);
                continue;
            }
            let (m, p) = answer.split_once(' ').unwrap();
            let path = parse_path(p).unwrap();
            assert!(verify_path(&s, &g, &path), "{line}: {answer}");
            assert_eq!(m.parse::<usize>().unwrap(), path.len());
            assert_eq!(Some(path.len() as u32), want, "{line}");
            assert_eq!(moves_only, m);
        }
    }
}

#[test]
fn answers_agree_with_an_independent_bfs() {
    for (shape, size) in [
        (Shape::new(3, 3), None),
        (Shape::new(2, 4), Some(Shape::new(2, 4))),
    ] {
        let mut g = Generator::new(Board::blank_last(shape).unwrap(), Mode::Pairs, 5, false);
        for _ in 0..2 {
            let (_, goal) = g.next_boards().unwrap();
            let dist = bfs_from(&goal);
            let mut starts = Generator::new(goal.clone(), Mode::Pairs, 11, false);
            let mut input = String::new();
            let mut want = Vec::new();
            for _ in 0..1500 {
                let (s, _) = starts.next_boards().unwrap();
                input.push_str(&format!(
                    "{} | {}\n",
                    s.to_flat_string(),
                    goal.to_flat_string()
                ));
                want.push(
                    dist.get(s.tiles())
                        .map_or("-1".to_string(), ToString::to_string),
                );
            }
            let c = BatchConfig { size, ..cfg(false) };
            let (out, _) = answer_text(&input, &c, Shard::ALL);
            let got: Vec<&str> = out.lines().collect();
            assert_eq!(got, want);
        }
    }
}

#[test]
fn same_output_on_one_thread_and_four() {
    let mut input = random_pairs(Shape::new(3, 3), 1, 5000);
    input.push_str("bad line\n\n# c\n1 2 3 0\n");
    let c = cfg(true);
    let run = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| answer_text(&input, &c, Shard::ALL))
    };
    let one = run(1);
    assert_eq!(one.0.lines().count(), 5002);
    assert_eq!(one, run(4));
}

#[test]
fn shards_merged_by_line_number_equal_the_whole() {
    let mut input = random_pairs(Shape::new(3, 3), 2, 1000);
    input.insert_str(0, "# header\n\n");
    input.push_str("x y z\n");
    let mut c = cfg(false);
    c.jsonl = true;
    let (whole, _) = answer_text(&input, &c, Shard::ALL);
    for n in [1u64, 2, 3, 7] {
        let mut merged: Vec<(u64, String)> = Vec::new();
        for i in 0..n {
            let (part, _) = answer_text(&input, &c, Shard { index: i, count: n });
            for l in part.lines() {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                merged.push((v["line"].as_u64().unwrap(), l.to_string()));
            }
        }
        merged.sort();
        let merged: Vec<String> = merged.into_iter().map(|(_, l)| l).collect();
        assert_eq!(merged.join("\n") + "\n", whole, "{n} shards");
    }
}

#[test]
fn shard_syntax() {
    assert_eq!("1/4".parse::<Shard>(), Ok(Shard { index: 1, count: 4 }));
    assert!("4/4".parse::<Shard>().is_err());
    assert!("0/0".parse::<Shard>().is_err());
    assert!("1".parse::<Shard>().is_err());
    assert!("-1/3".parse::<Shard>().is_err());
}

#[test]
fn parity_shortcut_matches_can_reach() {
    for shape in [
        Shape::new(2, 2),
        Shape::new(2, 3),
        Shape::new(3, 2),
        Shape::new(3, 3),
        Shape::new(2, 4),
    ] {
        let mut g = Generator::new(Board::blank_last(shape).unwrap(), Mode::Pairs, 77, false);
        for _ in 0..2000 {
            let (s, goal) = g.next_boards().unwrap();
            let answer = table_answer(&SolveOptions::default(), shape, s.tiles(), goal.tiles());
            assert_eq!(answer.moves.is_some(), s.can_reach(&goal), "{s:?} {goal:?}");
        }
    }
}
