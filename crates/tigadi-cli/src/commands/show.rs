//! `tigadi show POSITION`: draws the board and says who is to move, the phase, the
//! hands and the 100-turn counter.

use super::CmdResult;
use crate::PositionArgs;
use serde_json::json;
use tigadi_rules::{diagram, parse_reached_position, GameResult, Phase, Point, Position, RuleSet};
pub use tigadi_tablebase::{result_json, standing};

/// Parses a position string for a game under `rules` (hands up to its gotis a side:
/// `pieces=N`; the position right after the capture that ends a game included),
/// turning the error into the command's message.
pub fn position(rules: &RuleSet, text: &str) -> Result<Position, String> {
    parse_reached_position(rules, text).map_err(|e| e.to_string())
}

fn names(bits: u32) -> Vec<&'static str> {
    Point::iter(bits).map(Point::name).collect()
}

/// What `show` and `moves` call the part of the game `p` is in: "placing
/// phase" or "moving phase", or under Lasker's rule, where there is no placing
/// phase (either player may slide while gotis are in hand), "gotis in hand".
pub fn phase_name(rules: &RuleSet, p: &Position) -> String {
    match p.phase() {
        Phase::Placing if rules.slides_in_hand => "gotis in hand".to_string(),
        phase => format!("{phase} phase"),
    }
}

/// Prints the board of `p`, who is to move, the hands, the 100-turn counter and,
/// when `result` says the game is over, how.
pub fn board(rules: &RuleSet, p: &Position, result: GameResult) -> Result<(), String> {
    crate::output::text(&diagram(p, rules.board).to_string())?;
    outln!("");
    let verb = match p.phase() {
        // Lasker's rule: with gotis in hand, a player places or slides.
        Phase::Placing if rules.slides_in_hand && p.mover() != 0 => "place or move",
        Phase::Placing => "place",
        Phase::Moving => "move",
    };
    if result.is_over() {
        // Nobody is to move in a finished game: name the side only as next.
        outln!("{}, {} next", phase_name(rules, p), p.side);
    } else {
        outln!("{} to {verb} ({})", p.side, phase_name(rules, p));
    }
    outln!(
        "Bone: {} on board, {} in hand   Seed: {} on board, {} in hand",
        p.bone.count_ones(),
        p.bone_hand,
        p.seed.count_ones(),
        p.seed_hand
    );
    if p.phase() == Phase::Moving || rules.slides_in_hand {
        outln!("quiet turns: {} of {}", p.quiet_turns, rules.quiet);
    }
    if result.is_over() {
        outln!("game over: {result}");
    }
    Ok(())
}

/// Runs the command; see the module docs.
pub fn run(rules: RuleSet, args: &PositionArgs) -> CmdResult {
    let p = position(&rules, &args.position)?;
    if let Err(e @ tigadi_rules::InvalidPosition::QuietTurnsAboveLimit { .. }) =
        tigadi_rules::Game::from_reached_position(rules, p)
    {
        return Err(format!("position '{}': {e}", args.position));
    }
    let result = standing(&rules, &p);
    if args.json {
        let v = json!({
            "position": p.to_string(),
            "rules": rules.name(),
            "side": p.side.name().to_lowercase(),
            "phase": p.phase().to_string(),
            "bone": names(p.bone),
            "seed": names(p.seed),
            "bone_hand": p.bone_hand,
            "seed_hand": p.seed_hand,
            "quiet_turns": p.quiet_turns,
            "quiet_limit": rules.quiet,
            "result": result_json(result),
        });
        outln!("{v}");
        return Ok(0);
    }
    board(&rules, &p, result)?;
    outln!("position: {p}");
    Ok(0)
}
