//! `tigadi play`: a game against the computer in the terminal. The board is drawn
//! after every turn; the player types moves in the notation of docs/RULES.md §9, or
//! `hint`, `undo`, `help`, `quit`. The computer's moves come from the library's
//! [`tigadi_play::choose()`]; it says when the tables could not help and it searched.

use super::show::{board, position};
use super::CmdResult;
use crate::input::{read_line, Line, MAX_LINE_BYTES};
use crate::PlayArgs;
use tigadi_play::{choose_in_game, hint, How, Level, Rng};
use tigadi_rules::{parse_move, Game, GameResult, Move, Position, RuleSet, Side};
use tigadi_tablebase::Tablebase;
use tigadi_values::both_in_words;

const HELP: &str = "Type a move: d5 (place), a1-a4 (slide), d5xg7 or a1-a4xg7 (with the \
capture a tigadi earns), pass (only when blocked). Or: hint (the best move), undo (take \
back your last move and the computer's reply), help, quit.";

/// Runs the command; see the module docs.
pub fn run(rules: RuleSet, args: &PlayArgs) -> CmdResult {
    let level = Level::from_number(args.level).ok_or("--level must be 1 to 4")?;
    let human = if args.side == "seed" {
        Side::Seed
    } else {
        Side::Bone
    };
    let start = match &args.from {
        Some(text) => position(&rules, text)?,
        None => Position::start(&rules),
    };
    let mut game = Game::from_reached_position(rules, start).map_err(|e| format!("--from: {e}"))?;
    if let Some(why) = super::tables::missing(&args.dir.dir, &rules) {
        eprintln!("tigadi: {why}; the computer searches a few turns ahead instead");
    }
    let tb = Tablebase::open(&args.dir.dir, &rules);
    let seed = args.seed.unwrap_or_else(clock_seed);
    let mut rng = Rng::seeded(seed);
    outln!(
        "You play {human} against the computer at {level} ({}). {HELP}",
        describe(level)
    );
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut bytes = Vec::new();
    loop {
        outln!("");
        board(&rules, game.position(), game.result())?;
        if game.result().is_over() {
            let verdict = match game.result() {
                GameResult::Win { winner, .. } if winner == human => "You win.",
                GameResult::Win { .. } => "The computer wins.",
                _ => "A draw.",
            };
            outln!("{verdict}");
            return Ok(0);
        }
        let p = *game.position();
        if p.side != human {
            let choice = choose_in_game(&tb, &game, level, &mut rng).map_err(|e| e.to_string())?;
            game.play(choice.mv)
                .map_err(|e| format!("the computer's move {} was refused: {e}", choice.mv))?;
            let note = match choice.how {
                How::Search {
                    depth,
                    no_table: Some(why),
                    ..
                } => format!(" ({why}; it searched {depth} turns ahead)"),
                _ => String::new(),
            };
            outln!("The computer ({}) plays {}{note}.", p.side, choice.mv);
            continue;
        }
        // The player's turn: ask until a legal move (or undo) changes the game.
        loop {
            crate::output::text(&format!("{human} to play> "))?;
            crate::output::flush()?;
            match read_line(&mut input, &mut bytes)
                .map_err(|e| format!("reading standard input: {e}"))?
            {
                Line::Whole => {}
                Line::End => {
                    outln!("");
                    outln!("Input ended; the game is left unfinished.");
                    return Ok(0);
                }
                // No move is that long: the input is not someone typing moves.
                Line::TooLong => {
                    return Err(format!(
                        "reading standard input: a line longer than {MAX_LINE_BYTES} bytes; \
                         the game is left unfinished"
                    ))
                }
            }
            // A line that is not UTF-8 is a typing mistake like any other: said,
            // and asked again (as batch `probe` answers it and goes on).
            let Ok(text) = std::str::from_utf8(&bytes) else {
                outln!("That is not a move: the line is not valid UTF-8. Type help for what you can type.");
                continue;
            };
            let text = text.trim();
            match text {
                "" => continue,
                "help" => outln!("{HELP}"),
                "quit" | "resign" => {
                    outln!("You resigned.");
                    return Ok(0);
                }
                "hint" => match hint(&tb, &p) {
                    Ok(h) => {
                        let moves: Vec<String> = h.best.iter().map(Move::to_string).collect();
                        let why = match &h.how {
                            How::Table { value, .. } => {
                                // The depth to win of the first best move, where solved.
                                let dtw = tb.answer(&p).ok().and_then(|r| {
                                    r.moves
                                        .into_iter()
                                        .find(|t| h.best.first() == Some(&t.turn))
                                        .and_then(|t| t.dtw)
                                });
                                format!("from the tables: {}", both_in_words(*value, dtw))
                            }
                            How::Search {
                                depth, no_table, ..
                            } => format!(
                                "{}; a {depth}-turn search suggests it",
                                no_table
                                    .as_ref()
                                    .map_or("no table here".into(), |w| w.to_string())
                            ),
                        };
                        // Level 4's pick among them (its own generator, so asking
                        // for hints does not change the computer's later choices).
                        let trap = match &h.how {
                            How::Table { .. } => {
                                choose_in_game(&tb, &game, Level::Ultra, &mut Rng::seeded(0))
                                    .map(|c| format!("; level 4 would play {}", c.mv))
                                    .unwrap_or_default()
                            }
                            _ => String::new(),
                        };
                        outln!("Hint: {} ({why}{trap}).", moves.join(" or "));
                    }
                    Err(e) => outln!("No hint: {e}."),
                },
                "undo" => match undone(&game, human) {
                    Some(g) => {
                        let taken = game.moves().len() - g.moves().len();
                        outln!(
                            "Took back {taken} move{}.",
                            if taken == 1 { "" } else { "s" }
                        );
                        game = g;
                        break;
                    }
                    None => outln!("Nothing to undo: you have not moved yet."),
                },
                _ => match parse_move(text) {
                    Err(e) => outln!("That is not a move: {e}. Type help for what you can type."),
                    Ok(mv) => match game.play(mv) {
                        Ok(_) => break,
                        Err(e) => outln!("{mv} is not legal here: {e}."),
                    },
                },
            }
        }
    }
}

/// The level in words.
fn describe(level: Level) -> &'static str {
    match level {
        Level::Beginner => "it looks one turn ahead",
        Level::Club => "it looks three turns ahead",
        Level::Perfect => "perfect play from the tables",
        Level::Ultra => "perfect play from the tables, setting traps for short-sighted players and avoiding repetitions",
    }
}

/// `game` with the player's last move (and every move after it) taken back;
/// `None` when the player has not moved.
fn undone(game: &Game, human: Side) -> Option<Game> {
    let mut replay = Game::from_reached_position(game.rules(), *game.start()).ok()?;
    let mut last = None;
    for (i, &mv) in game.moves().iter().enumerate() {
        if replay.position().side == human {
            last = Some(i);
        }
        replay.play(mv).ok()?;
    }
    let keep = last?;
    let mut g = Game::from_reached_position(game.rules(), *game.start()).ok()?;
    for &mv in &game.moves()[..keep] {
        g.play(mv).ok()?;
    }
    Some(g)
}

/// A seed from the clock, for games that need not be repeatable.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}
