//! `tigadi stats`: win/draw/loss counts of the solved moving-phase tiers (one row
//! per subspace), of the tiers with gotis in hand summed by their hands (one row
//! per hands, with the placements made to reach them), and the value of the
//! empty board when its tier is solved; the longest DTW of each where the DTW
//! tables are there (`longest_dtw`, absent otherwise).

use super::CmdResult;
use crate::DirJsonArgs;
use serde_json::json;
use tigadi_rules::{Board, Position, RuleSet, Side};
use tigadi_tablebase::{
    field, ClassCounts, Hands, TableId, TableKind, Tablebase, TablebaseDir, TablebaseError, Tier,
};
use tigadi_values::Metric;

pub fn run(rules: RuleSet, args: &DirJsonArgs) -> CmdResult {
    let tables = TablebaseDir::new(&args.dir.dir, &rules);
    // What the depths under the rule count to: DTC₁₀₀, or DTZ₁₀₀ under Lasker's rule.
    let rule_metric = TableKind::Horizon.metric_under(&rules);
    let subs = tables
        .moving_subspaces(TableKind::GameTheoretic)
        .map_err(|e| e.to_string())?;
    if subs.is_empty() {
        return Err(format!("no tablebase files in {}", tables.path().display()));
    }
    // The manifest only adds solve times: a damaged one costs those, not the table.
    let manifest = tables.read_manifest().unwrap_or_else(|e| {
        eprintln!("tigadi: warning: {e}; solve times are not shown");
        None
    });
    if !args.json {
        outln!(
            "{:<8} {:>14} {:>14} {:>14} {:>14} {:>6} {:>6} {:>10} {:>12} {:>12} {:>7} {:>7} {:>6}",
            "subspace",
            "classes",
            "win",
            "draw",
            "loss",
            "dtc+",
            "dtc-",
            "seconds",
            "cursed-win",
            "blessed-loss",
            &format!("{}+", rule_metric.key_under_rule()),
            &format!("{}-", rule_metric.key_under_rule()),
            "dtw"
        );
    }
    for s in subs {
        let id = TableId::moving(TableKind::GameTheoretic, s);
        let c = tables.open(id).map_err(|e| e.to_string())?.header().counts;
        let rule = under_rule(&c, rule_counts(&tables, id)?);
        let dtw = longest_dtw(&tables, id)?;
        let seconds = manifest
            .as_ref()
            .and_then(|m| m.subspaces.iter().find(|e| e.subspace() == s))
            .and_then(|e| e.seconds);
        if args.json {
            let mut row = counts_row(
                &rules,
                &c,
                json!({ "mover": s.mover, "opponent": s.opponent, "seconds": seconds }),
            );
            // `null` without horizon tables: moving rows always have these fields.
            with_rule(
                &mut row,
                rule_metric,
                rule.map_or([None; 4], |v| v.map(Some)),
            );
            with_dtw(&mut row, dtw);
            outln!("{row}");
        } else {
            let secs = seconds.map_or("-".to_string(), |x| format!("{x:.1}"));
            let [cursed, blessed, win100, loss100] = rule_cells(rule);
            outln!(
                "{:<8} {:>14} {:>14} {:>14} {:>14} {:>6} {:>6} {:>10} {:>12} {:>12} {:>7} {:>7} {:>6}",
                s.to_string(),
                c.classes(),
                c.wins,
                c.draws,
                c.losses,
                c.max_dtc_win,
                c.max_dtc_loss,
                secs,
                cursed,
                blessed,
                win100,
                loss100,
                dtw.map_or("-".to_string(), |d| d.to_string()),
            );
        }
    }
    print_hands_rows(&tables, args)?;
    print_empty_board(&tables, args)
}

/// A `--json` row: the rule set and the class counts every row has (classes,
/// win, draw, loss, longest win and loss), with the fields of `extra` (an object)
/// added. Keys come out sorted, whatever the order here.
fn counts_row(rules: &RuleSet, c: &ClassCounts, extra: serde_json::Value) -> serde_json::Value {
    let mut row = json!({
        "rules": rules.name(),
        "classes": c.classes(),
        "win": c.wins,
        "draw": c.draws,
        "loss": c.losses,
        "max_dtc_win": c.max_dtc_win,
        "max_dtc_loss": c.max_dtc_loss,
    });
    if let (Some(row), serde_json::Value::Object(extra)) = (row.as_object_mut(), extra) {
        row.extend(extra);
    }
    row
}

/// The longest DTW (of a win or a loss) of the positions of table `id`'s phase and
/// subspace, from its DTW table's header; `None` without a DTW table.
fn longest_dtw(tables: &TablebaseDir, id: TableId) -> Result<Option<u16>, String> {
    match tables.open(id.with_kind(TableKind::Dtw)) {
        Ok(t) => Ok(Some(
            t.header()
                .counts
                .max_dtc_win
                .max(t.header().counts.max_dtc_loss),
        )),
        Err(TablebaseError::MissingSubspace { .. }) => Ok(None),
        Err(e) => Err(e.to_string()),
    }
}

/// Adds `longest_dtw` to a `--json` row when known (absent otherwise, so that rows
/// of directories without DTW tables are as before).
fn with_dtw(row: &mut serde_json::Value, dtw: Option<u16>) {
    if let (Some(row), Some(d)) = (row.as_object_mut(), dtw) {
        row.insert("longest_dtw".into(), d.into());
    }
}

/// One row per hands of the solved tiers with gotis in hand, summed over their
/// tables' headers: the placements made to reach them (`placed`: the gotis in
/// play less those in hand), classes, wins, draws and losses for the player to
/// move, the longest win and loss (DTC counting placements as turns); under the
/// 100-turn rule, when every table of the hands has its horizon table, the
/// cursed wins, blessed losses and longest DTC₁₀₀ as in the moving-phase rows
/// (absent otherwise, as `longest_dtw` is). Rows come in the order of the game:
/// fewest placements first. Without Lasker's rule each number of placements has
/// one hands (the alternation's), so a row is what was once called a placing
/// layer; `--json` rows keep its key `placed` beside `hands` ([mover, opponent]).
fn print_hands_rows(tables: &TablebaseDir, args: &DirJsonArgs) -> CmdResult {
    let rules = *tables.rules();
    let rule_metric = TableKind::Horizon.metric_under(&rules);
    // Keyed by (placements, hands): the order of the game.
    type Key = (u32, Hands);
    let mut rows: std::collections::BTreeMap<Key, (usize, ClassCounts)> = Default::default();
    // The longest DTW of each hands, `None` once a table of it has no DTW table.
    let mut dtws: std::collections::BTreeMap<Key, Option<u16>> = Default::default();
    // The counts under the rule of each hands, `None` once a table of it has no
    // horizon table.
    let mut rules_sum: std::collections::BTreeMap<Key, Option<ClassCounts>> = Default::default();
    for id in tables.list().map_err(|e| e.to_string())? {
        let Some(placed) = id.tier.placements(&rules) else {
            continue;
        };
        if id.kind != TableKind::GameTheoretic {
            continue;
        }
        let placed = (placed, id.tier.hands);
        let c = tables.open(id).map_err(|e| e.to_string())?.header().counts;
        let dtw = longest_dtw(tables, id)?;
        let longest = dtws.entry(placed).or_insert(Some(0));
        *longest = longest.zip(dtw).map(|(a, b)| a.max(b));
        let rule = rule_counts(tables, id)?;
        let rule_sum = rules_sum
            .entry(placed)
            .or_insert(Some(ClassCounts::default()));
        *rule_sum = rule_sum.zip(rule).map(|(s, r)| add_counts(s, &r));
        let (n, sum) = rows.entry(placed).or_default();
        *n += 1;
        *sum = add_counts(*sum, &c);
    }
    if !rows.is_empty() && !args.json {
        outln!(
            "{:<7} {:>6} {:>9} {:>14} {:>14} {:>14} {:>14} {:>6} {:>6} {:>12} {:>12} {:>7} {:>7} {:>6}",
            "hands",
            "placed",
            "tables",
            "classes",
            "win",
            "draw",
            "loss",
            "dtc+",
            "dtc-",
            "cursed-win",
            "blessed-loss",
            &format!("{}+", rule_metric.key_under_rule()),
            &format!("{}-", rule_metric.key_under_rule()),
            "dtw"
        );
    }
    for (key, (n, c)) in rows {
        let dtw = dtws[&key];
        let rule = under_rule(&c, rules_sum[&key]);
        let (placed, hands) = key;
        if args.json {
            let mut row = counts_row(
                &rules,
                &c,
                json!({
                    "hands": [hands.mover, hands.opponent],
                    "placed": placed,
                    "tables": n,
                }),
            );
            // Absent without horizon tables, as `longest_dtw` is.
            if let Some(fields) = rule {
                with_rule(&mut row, rule_metric, fields.map(Some));
            }
            with_dtw(&mut row, dtw);
            outln!("{row}");
        } else {
            let [cursed, blessed, win100, loss100] = rule_cells(rule);
            outln!(
                "{:<7} {:>6} {:>9} {:>14} {:>14} {:>14} {:>14} {:>6} {:>6} {:>12} {:>12} {:>7} {:>7} {:>6}",
                format!("{}+{}", hands.mover, hands.opponent),
                placed,
                n,
                c.classes(),
                c.wins,
                c.draws,
                c.losses,
                c.max_dtc_win,
                c.max_dtc_loss,
                cursed,
                blessed,
                win100,
                loss100,
                dtw.map_or("-".to_string(), |d| d.to_string())
            );
        }
    }
    Ok(0)
}

/// The counts under the 100-turn rule of table `id`'s phase and subspace, from its
/// horizon table's header (win, draw and loss at counter 0, the longest DTC₁₀₀);
/// `None` without a horizon table.
fn rule_counts(tables: &TablebaseDir, id: TableId) -> Result<Option<ClassCounts>, String> {
    match tables.open(id.with_kind(TableKind::Horizon)) {
        Ok(t) => Ok(Some(t.header().counts)),
        Err(TablebaseError::MissingSubspace { .. }) => Ok(None),
        Err(e) => Err(e.to_string()),
    }
}

/// The `--json` fields under the 100-turn rule, in the order [`under_rule`] gives
/// their values: the longest depths named by `metric` (`max_dtc100_win`, or
/// under Lasker's rule `max_dtz100_win`; [`TableKind::metric_under`]).
fn rule_fields(metric: Metric) -> [String; 4] {
    let depth = metric.key_under_rule();
    [
        "cursed_win".into(),
        "blessed_loss".into(),
        format!("max_{depth}_win"),
        format!("max_{depth}_loss"),
    ]
}

/// What a row shows under the 100-turn rule, from its counts ignoring the rule
/// (`c`) and under it (`rule`, from the horizon tables' headers; `None` without
/// them): the cursed wins, the blessed losses, the longest DTC₁₀₀ of a win and
/// of a loss. A win under the rule is a win ignoring it, so the cursed wins are
/// the wins that are not wins under the rule, and likewise the blessed losses
/// (verify checks the categories).
fn under_rule(c: &ClassCounts, rule: Option<ClassCounts>) -> Option<[u64; 4]> {
    rule.map(|r| {
        [
            c.wins - r.wins.min(c.wins),
            c.losses - r.losses.min(c.losses),
            r.max_dtc_win as u64,
            r.max_dtc_loss as u64,
        ]
    })
}

/// Adds the [`rule_fields`] of `metric` to a `--json` row with the values given
/// (`null` for `None`).
fn with_rule(row: &mut serde_json::Value, metric: Metric, values: [Option<u64>; 4]) {
    if let Some(row) = row.as_object_mut() {
        for (key, v) in rule_fields(metric).into_iter().zip(values) {
            row.insert(key, v.into());
        }
    }
}

/// The text columns of [`under_rule`]'s values, `-` for each without horizon
/// tables.
fn rule_cells(rule: Option<[u64; 4]>) -> [String; 4] {
    match rule {
        Some(v) => v.map(|x| x.to_string()),
        None => std::array::from_fn(|_| "-".to_string()),
    }
}

/// The counts of two sets of positions together: the sums, and the longer of the
/// longest win and loss.
fn add_counts(a: ClassCounts, b: &ClassCounts) -> ClassCounts {
    ClassCounts {
        wins: a.wins + b.wins,
        draws: a.draws + b.draws,
        losses: a.losses + b.losses,
        max_dtc_win: a.max_dtc_win.max(b.max_dtc_win),
        max_dtc_loss: a.max_dtc_loss.max(b.max_dtc_loss),
    }
}

/// The empty board's value for Bone, who places first, when its tier (the start)
/// is solved: game-theoretic, and under the 100-turn rule (with its class)
/// when the placing horizon tables are there too.
fn print_empty_board(tables: &TablebaseDir, args: &DirJsonArgs) -> CmdResult {
    let rules = *tables.rules();
    let start = TableId::new(TableKind::GameTheoretic, Tier::start(&rules));
    if !tables.table_path(start).is_file() {
        if !args.json {
            println!("empty board: its tier is not solved");
        }
        return Ok(0);
    }
    let tb = Tablebase::open(tables.root(), &rules);
    let value = tb
        .get::<field::Dtc>(start.tier.hands, Board::default())
        .map_err(|e| e.to_string())?;
    let rule = match tb.probe_rule(start.tier.hands, Board::default(), 0) {
        Ok(r) => Some(r),
        Err(TablebaseError::MissingSubspace { .. }) => None,
        Err(e) => return Err(e.to_string()),
    };
    let dtw = match tb.get::<field::Dtw>(start.tier.hands, Board::default()) {
        Ok(v) => Some(v),
        Err(TablebaseError::MissingSubspace { .. }) => None,
        Err(e) => return Err(e.to_string()),
    };
    let position = Position::start(&rules).to_string();
    let rule_metric = TableKind::Horizon.metric_under(&rules);
    if args.json {
        let mut row = json!({
            "rules": rules.name(),
            "position": position,
            "side": Side::Bone.name(),
            "value": value.wdl().to_string(),
            "dtc": value.dtc(),
            "category": rule.map(|r| r.category.to_string()),
            "rule_value": rule.map(|r| r.dtc100.wdl().to_string()),
        });
        if let Some(row) = row.as_object_mut() {
            // `dtc100`, or `dtz100` under Lasker's rule, as `probe --json` keys it.
            row.insert(
                rule_metric.key_under_rule().into(),
                rule.and_then(|r| r.dtc100.dtc()).into(),
            );
            if let Some(v) = dtw {
                row.insert("dtw".into(), v.dtc().into());
            }
        }
        println!("{row}");
    } else {
        println!(
            "empty board ({position}), Bone to place first: {} (game-theoretic)",
            tigadi_values::both_in_words(value, dtw)
        );
        if let Some(r) = rule {
            println!(
                "empty board under the 100-turn rule (quiet={}): {} ({})",
                rules.quiet,
                tigadi_values::start_in_words(r.dtc100, rule_metric),
                r.category
            );
        }
    }
    Ok(0)
}
