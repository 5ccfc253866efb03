//! The `tigadi` command: parses arguments and calls the library crates. It holds no
//! game logic of its own. Every error is printed with what went wrong and exits with
//! code 2 (`verify` exits 1 when a table fails its checks).

/// Writes one line to standard output like `println!`, but a failed write (a full
/// disk, a closed terminal) returns the command's error instead of panicking.
macro_rules! outln {
    ($($arg:tt)*) => {
        crate::output::line(format_args!($($arg)*))?
    };
}

mod commands;
mod input;
mod interrupt;
mod output;
mod progress;
mod usage;

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use tigadi_rules::RuleSet;

/// Rules referee, solver and tablebase prober for Tigadi and its variants.
#[derive(Parser, Debug)]
#[command(name = "tigadi", version, about)]
struct Cli {
    /// Rule set: tigadi (default), navakankari, morris, morabaraba, lasker, or switches
    /// such as lines=20,flying=3,blocked=loses (slides=always: slides while gotis are
    /// in hand, Lasker's rule); quiet=N (1..100) sets the turn limit of the 100-turn
    /// rule, as in tigadi,quiet=10.
    #[arg(long, global = true, default_value = "tigadi", value_parser = RuleSet::parse)]
    rules: RuleSet,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Draw a position: board, side to move, phase, hands.
    Show(PositionArgs),
    /// List the legal moves of a position.
    Moves(PositionArgs),
    /// Replay a game record from the empty board, checking every move.
    Replay(ReplayArgs),
    /// Count the leaves of the move tree to a given depth.
    Perft(PerftArgs),
    /// Slot and class counts of the position index, per moving-phase subspace of
    /// the rule set's game (with --tiers: per tier, gotis in hand included).
    IndexStats(IndexStatsArgs),
    /// Solve the game by retrograde analysis, tier by tier (the tiers with empty hands first, then those with gotis in hand), and write tablebases.
    Solve(SolveArgs),
    /// Win/draw/loss counts of the solved subspaces.
    Stats(DirJsonArgs),
    /// Look positions up in the tablebases: value, DTC and every move's outcome.
    Probe(ProbeArgs),
    /// Check every checksum and recompute every stored value from its successors.
    Verify(VerifyArgs),
    /// Serve the tablebases over HTTP: a JSON API and a web explorer.
    Serve(ServeArgs),
    /// Judge every turn of a game record from the tables: values before and after,
    /// the best moves, thrown wins and draws.
    Analyze(AnalyzeArgs),
    /// The principal variation from a position under perfect play.
    Line(LineArgs),
    /// Play against the computer in the terminal.
    Play(PlayArgs),
    /// A self-play match between two levels of the computer.
    #[command(name = "match")]
    Match(MatchArgs),
}

/// A position string (docs/RULES.md §9) and output format.
#[derive(Args, Debug)]
pub struct PositionArgs {
    /// Position string, e.g. ".../.../.../....../.../.../... B 9 9".
    pub position: String,
    /// Machine-readable JSON output.
    #[arg(long)]
    pub json: bool,
}

/// A game record (argument or file) and output format: the arguments of `replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The game record: moves separated by white space, Bone first.
    #[arg(required_unless_present = "file", conflicts_with = "file")]
    pub record: Option<String>,
    /// Read the record from a file ("-" for standard input).
    #[arg(long)]
    pub file: Option<PathBuf>,
    /// Machine-readable JSON output.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Position string.
    pub position: String,
    /// Depth in turns.
    pub depth: u32,
}

/// Just `--json`.
#[derive(Args, Debug)]
pub struct JsonArgs {
    /// Machine-readable JSON output.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `index-stats`.
#[derive(Args, Debug)]
pub struct IndexStatsArgs {
    /// Machine-readable JSON output.
    #[arg(long)]
    pub json: bool,
    /// Every tier the game reaches (hands and board counts: the tables a whole
    /// solve writes, one each), not only the moving-phase subspaces; the totals
    /// add the steps of the solve and the slots of its largest step.
    #[arg(long)]
    pub tiers: bool,
}

/// Tablebase directory (one subfolder per rule set is made inside it).
#[derive(Args, Debug)]
pub struct DirArgs {
    /// Tablebase directory.
    #[arg(long, default_value = "tablebases")]
    pub dir: PathBuf,
}

/// Tablebase directory and `--json`.
#[derive(Args, Debug)]
pub struct DirJsonArgs {
    #[command(flatten)]
    pub dir: DirArgs,
    /// One JSON object per line.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub dir: DirArgs,
    /// Solve only subspaces with at most this many gotis on the board in all (6 to
    /// twice the gotis a side, at most 23; default: all of them). The tiers with
    /// gotis in hand are solved only when every tier with empty hands is.
    #[arg(long)]
    pub max_pieces: Option<u32>,
    /// Solve only the pair containing this subspace (e.g. 7v6: 7 gotis for the
    /// player to move, 6 for the other) and every pair its captures lead to.
    #[arg(long, conflicts_with = "max_pieces")]
    pub subspace: Option<String>,
    /// Skip the tiers with gotis in hand (the placing phase; solved by default after
    /// the tiers with empty hands).
    #[arg(long)]
    pub no_placing: bool,
    /// Worker threads (default: all cores; at most four per core). The output does
    /// not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Skip the values under the 100-turn rule (the `.tghz` horizon tables); a later
    /// run without this switch adds them without solving the rest again.
    #[arg(long)]
    pub no_horizon: bool,
    /// Also compute the depth to win (DTW: turns to the end of the game) of every
    /// position, into `.tgdw` tables, after the values; on a directory already
    /// solved, adds only the DTW tables.
    #[arg(long)]
    pub dtw: bool,
    /// zstd levels of the tables: `fast` (the default, also `default`: 3 for every
    /// section),
    /// `small` (9 for WDL and category sections, 6 for DTC, DTC100 and DTW: files
    /// about 10% smaller, written 2-2.7 times slower; the former default, see
    /// docs/FORMAT.md) or two levels `WDL,DTC` from 1 to 19. Only for a new
    /// directory: a directory keeps the levels it was started with (recorded in
    /// its manifest), so a resumed run writes the same bytes.
    #[arg(long, value_name = "LEVELS")]
    pub compression: Option<String>,
    /// Decompressed size of every block of the tables in KiB, a power of two from
    /// 1 to 1024 (default: 16 KiB, 8 KiB in WDL sections). Smaller blocks make a
    /// random probe cheaper (4 for a server over a whole set) for files about 15%
    /// larger (docs/PERFORMANCE.md). Only for a new directory, as --compression.
    #[arg(long, value_name = "KIB")]
    pub block_kib: Option<u32>,
    /// Memory in GB (10^9 bytes) that a step of tiers with gotis in hand under
    /// Lasker's rule may take to find its game values and its 100-turn values in
    /// one pass, about a third faster than one after the other, which takes half
    /// the memory (default 10; 0: never together). The tables do not depend on it.
    #[arg(long, value_name = "GB")]
    pub memory: Option<String>,
    /// Say what the run would do, then stop without solving: per kind of table,
    /// the steps solved here already and those still to solve with their slots,
    /// and about the bytes of tables they will write against the disk's free
    /// bytes. Only reads (checking every table's checksums, as a run does), so
    /// it may run beside a solve of the same directory.
    #[arg(long)]
    pub plan: bool,
    /// With --plan: one JSON object instead of text.
    #[arg(long, requires = "plan")]
    pub json: bool,
}

/// Arguments of `verify`.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub dir: DirArgs,
    /// Recompute every table, also those that passed an earlier run unchanged
    /// (recorded in verified.json beside the tables).
    #[arg(long)]
    pub again: bool,
    /// Verify only the tables of this kind, both phases (repeatable; default: every
    /// kind present): game (win/draw/loss and DTC), horizon (the 100-turn rule), dtw
    #[arg(long = "kind", value_parser = parse_kind, value_name = "KIND")]
    pub kinds: Vec<tigadi_tablebase::TableKind>,
    /// Verify only this table, named as its file is (repeatable), such as
    /// 4v3.tgtb or p19-6v6.tgtb; its check reads the tables of its successors
    #[arg(long = "table", value_name = "FILE")]
    pub tables: Vec<String>,
}

/// A kind of table as `verify --kind` names it ([`tigadi_tablebase::TableKind::name`]).
fn parse_kind(word: &str) -> Result<tigadi_tablebase::TableKind, String> {
    tigadi_tablebase::TableKind::named(word).ok_or_else(|| {
        let names: Vec<&str> = tigadi_tablebase::TableKind::ALL
            .iter()
            .map(|k| k.name())
            .collect();
        format!(
            "no kind of table is named {word:?} (kinds: {})",
            names.join(", ")
        )
    })
}

/// Arguments of `probe`.
#[derive(Args, Debug)]
pub struct ProbeArgs {
    #[command(flatten)]
    pub dir: DirArgs,
    /// Position string; omit it (and --record) to read one position per line from
    /// standard input and write one JSON object per line.
    #[arg(conflicts_with = "record")]
    pub position: Option<String>,
    /// Probe the position a game record reaches.
    #[arg(long)]
    pub record: Option<String>,
    /// Machine-readable JSON output.
    #[arg(long)]
    pub json: bool,
    /// Name the 100-turn rule's value on every line, also where it changes nothing
    /// (by default only where it changes a value or class, or the counter is above 0).
    #[arg(long)]
    pub rule_detail: bool,
}

/// Arguments of `serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    #[command(flatten)]
    pub dir: DirArgs,
    /// Address and port to listen on (port 0: any free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub bind: std::net::SocketAddr,
    /// Memory for decompressed table blocks, per rule set served, in MiB (filled
    /// as positions are asked for; a larger cache decompresses less often; tables
    /// with smaller blocks keep more of them in it).
    #[arg(long, default_value_t = tigadi_server::DEFAULT_CACHE_MIB,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1 << 20))]
    pub cache_mib: usize,
}

/// Arguments of `analyze`.
#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub dir: DirArgs,
    #[command(flatten)]
    pub game: ReplayArgs,
}

/// Arguments of `line`.
#[derive(Args, Debug)]
pub struct LineArgs {
    #[command(flatten)]
    pub dir: DirArgs,
    /// Position string, either phase (the empty board is ".../.../.../....../.../.../... B 9 9" under the default rules).
    pub position: String,
    /// Stop after this many turns.
    #[arg(long, default_value_t = 200)]
    pub max_turns: usize,
    /// The depth both sides play by: dtc (the winner captures as soon as it can,
    /// the loser as late as it can) or dtw (the winner ends the game as soon as it
    /// can, the loser as late as it can; needs the DTW tables, `solve --dtw`).
    #[arg(long, default_value = "dtc", value_parser = ["dtc", "dtw"])]
    pub metric: String,
    /// Machine-readable JSON output.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub dir: DirArgs,
    /// The computer's strength: 1 (looks one turn ahead), 2 (three turns), 3
    /// (perfect from the tables), 4 (ultra: perfect, and the likeliest to make a
    /// fallible opponent go wrong).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=4))]
    pub level: u8,
    /// The side you play.
    #[arg(long = "as", default_value = "bone", value_parser = ["bone", "seed"])]
    pub side: String,
    /// Seed of the computer's choices between equally good moves (default: from
    /// the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Start from this position instead of the empty board.
    #[arg(long)]
    pub from: Option<String>,
}

/// Arguments of `match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    #[command(flatten)]
    pub dir: DirArgs,
    /// The first player's level (1 to 4; 4 is ultra).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=4))]
    pub level: u8,
    /// The second player's level (1 to 4).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=4))]
    pub vs: u8,
    /// Games to play; the first player is Bone in every other game, starting with
    /// the first.
    #[arg(long, default_value_t = 200)]
    pub games: usize,
    /// Seed: the same seed and tables give the same games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Start every game from this position instead of the empty board.
    #[arg(long)]
    pub from: Option<String>,
    /// Start each game from a position lost for the first player (by the tables),
    /// the first one of a seeded random walk from the empty board (or `--from`);
    /// the first player plays the side to move there.
    #[arg(long)]
    pub lost_starts: bool,
    /// Write every game's record (and result) to this file.
    #[arg(long)]
    pub records: Option<PathBuf>,
    /// Machine-readable JSON output (the tally and every game).
    #[arg(long)]
    pub json: bool,
}

fn main() -> ExitCode {
    // Die quietly when the reader of our output goes away (`tigadi stats | head`),
    // as command-line tools do, instead of panicking on a failed print.
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to the default before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() => {
            // clap repeats a bad argument whole; a huge one would make a huge message.
            eprintln!("{}", shorten_quotes(e.render().to_string().trim_end()));
            return ExitCode::from(2);
        }
        // --help, --version: their text on standard output.
        Err(e) => {
            return match e
                .print()
                .and_then(|_| std::io::Write::flush(&mut std::io::stdout()))
            {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("tigadi: error: {}", output::write_error(e));
                    ExitCode::from(2)
                }
            }
        }
    };
    let rules = cli.rules;
    let result = match cli.command {
        Command::Show(a) => commands::show::run(rules, &a),
        Command::Moves(a) => commands::moves::run(rules, &a),
        Command::Replay(a) => commands::replay::run(rules, &a),
        Command::Perft(a) => commands::perft::run(rules, &a),
        Command::IndexStats(a) => commands::index_stats::run(rules, &a),
        Command::Solve(a) => commands::solve::run(rules, &a),
        Command::Stats(a) => commands::stats::run(rules, &a),
        Command::Probe(a) => commands::probe::run(rules, &a),
        Command::Verify(a) => commands::verify::run(rules, &a),
        Command::Serve(a) => commands::serve::run(&a),
        Command::Analyze(a) => commands::analyze::run(rules, &a),
        Command::Line(a) => commands::line::run(rules, &a),
        Command::Play(a) => commands::play::run(rules, &a),
        Command::Match(a) => commands::matches::run(rules, &a),
    };
    // Output still buffered must reach its file too, or the command fails.
    let result = result.and_then(|code| output::flush().map(|_| code));
    match result {
        Ok(code) => ExitCode::from(code),
        Err(message) => {
            eprintln!("tigadi: error: {message}");
            ExitCode::from(2)
        }
    }
}

/// `text` with every quoted part (between single quotes) cut to a readable length.
fn shorten_quotes(text: &str) -> String {
    text.split('\'')
        .enumerate()
        .map(|(i, part)| {
            // Longer than anything `shown` makes: the whole argument.
            if i % 2 == 1 && part.chars().count() > 80 {
                tigadi_rules::notation::shown(part)
            } else {
                part.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("'")
}
