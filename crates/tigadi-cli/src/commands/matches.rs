//! `tigadi match --level A --vs B`: a self-play match between two levels of the
//! computer (the library's [`tigadi_play::play_match`]).

use super::show::position;
use super::CmdResult;
use crate::MatchArgs;
use std::io::Write;
use tigadi_play::{play_match, Level, MatchSettings};
use tigadi_rules::{format_record, Position, RuleSet};
use tigadi_tablebase::Tablebase;

/// Runs the command; see the module docs.
pub fn run(rules: RuleSet, args: &MatchArgs) -> CmdResult {
    let level = |n: u8| Level::from_number(n).ok_or(format!("no level {n} (1 to 4)"));
    let start = match &args.from {
        Some(text) => position(&rules, text)?,
        None => Position::start(&rules),
    };
    let settings = MatchSettings {
        level: level(args.level)?,
        vs: level(args.vs)?,
        games: args.games,
        seed: args.seed,
        start,
        lost_starts: args.lost_starts,
    };
    let tb = Tablebase::open(&args.dir.dir, &rules);
    let report = play_match(&tb, &settings).map_err(|e| e.to_string())?;
    if let Some(path) = &args.records {
        let mut text = String::new();
        for g in &report.games {
            text.push_str(&format!(
                "# game {}: {} as {} against {} from {}: {}\n{}\n",
                g.number,
                settings.level,
                g.first_player,
                settings.vs,
                g.start,
                g.result,
                format_record(&g.moves)
            ));
        }
        std::fs::File::create(path)
            .and_then(|mut f| f.write_all(text.as_bytes()))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if args.json {
        let text = serde_json::to_string(&report).map_err(|e| e.to_string())?;
        outln!("{text}");
        return Ok(0);
    }
    let (a, b) = (settings.level, settings.vs);
    let turns: usize = report.games.iter().map(|g| g.moves.len()).sum();
    let searched: usize = report.games.iter().map(|g| g.searched).sum();
    outln!(
        "{a} vs {b}: {} games from {}{} (seed {})",
        settings.games,
        if settings.lost_starts {
            "positions lost for the first player, walked to from "
        } else {
            ""
        },
        settings.start,
        settings.seed
    );
    outln!(
        "first player ({a}) won {} ({} as Bone, {} as Seed); second player ({b}) won {} \
         ({} as Bone, {} as Seed); {} drawn",
        report.first_wins[0] + report.first_wins[1],
        report.first_wins[0],
        report.first_wins[1],
        report.second_wins[0] + report.second_wins[1],
        report.second_wins[0],
        report.second_wins[1],
        report.draws
    );
    if searched == 0 {
        outln!("{turns} turns in all; none chosen by search");
    } else {
        outln!(
            "{turns} turns in all; levels 3 and 4 chose {searched} of them by search, \
             for want of a table"
        );
    }
    Ok(0)
}
