//! Compares padding fills for the WDL section on tables written by `sizes`.
use tigadi_index::Subspace;
use tigadi_solve::{Packed, Value};

fn binom(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |a, i| a * (n - i) / (i + 1))
}

fn main() {
    let dir = std::path::PathBuf::from(std::env::args().nth(1).unwrap_or("/tmp/tb-sizes9".into()));
    let rules = tigadi_rules::RuleSet::TIGADI;
    let code = |p: Packed| match p.get() {
        Some(Value::Win(_)) => 2u8,
        Some(Value::Draw) => 1,
        Some(Value::Loss(_)) => 0,
        None => 3,
    };
    for s in [
        Subspace::new(3, 3),
        Subspace::new(4, 4),
        Subspace::new(4, 5),
        Subspace::new(5, 4),
    ] {
        let id = tigadi_tablebase::TableId::moving(tigadi_tablebase::TableKind::GameTheoretic, s);
        let mut v = tigadi_tablebase::TablebaseDir::new(&dir, &rules)
            .load(id)
            .unwrap();
        tigadi_tablebase::mark_padding(s, &mut v);
        let classes = v.iter().filter(|p| p.is_some()).count() as f64;
        let row = binom(24 - s.mover as u64, s.opponent as u64) as usize;
        let codes: Vec<u8> = v.iter().map(|&p| code(p)).collect();
        let fills: Vec<(&str, Vec<u8>)> = vec![
            ("previous", {
                let mut c = codes.clone();
                let mut prev = 1;
                for x in c.iter_mut() {
                    if *x == 3 {
                        *x = prev
                    } else {
                        prev = *x
                    }
                }
                c
            }),
            ("next", {
                let mut c = codes.clone();
                let mut next = 1;
                for x in c.iter_mut().rev() {
                    if *x == 3 {
                        *x = next
                    } else {
                        next = *x
                    }
                }
                c
            }),
            (
                "draw",
                codes.iter().map(|&x| if x == 3 { 1 } else { x }).collect(),
            ),
            ("row above", {
                let mut c = codes.clone();
                let mut prev = 1;
                for i in 0..c.len() {
                    if c[i] == 3 {
                        c[i] = if i >= row && c[i - row] != 3 {
                            c[i - row]
                        } else {
                            prev
                        }
                    } else {
                        prev = c[i]
                    }
                }
                c
            }),
        ];
        for (name, c) in fills {
            let mut total = 0;
            for chunk in c.chunks(32768) {
                let mut r = vec![0u8; chunk.len().div_ceil(4)];
                for (j, &x) in chunk.iter().enumerate() {
                    r[j / 4] |= x << (2 * (j % 4));
                }
                total += zstd::bulk::compress(&r, 15).unwrap().len();
            }
            println!(
                "{s} {name}: {:.3} bits/class (padding {:.1}%)",
                total as f64 * 8.0 / classes,
                100.0 * (1.0 - classes / v.len() as f64)
            );
        }
    }
}
