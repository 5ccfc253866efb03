//! Solving one step of the tier graph: the values of every position of a tier
//! (or of a tier and its flipped partner), given the solved tiers its moves lead
//! out to. A step is solved by its tier's shape (`tigadi_values::Tier::has_moves_inside`):
//!
//! - [`retrograde`]: a tier with moves inside it (slides and passes between
//!   `m v o` and `o v m`), by parallel retrograde analysis in rounds: win/draw/loss
//!   and DTC for every position of the pair;
//! - [`leaving`]: a tier whose moves all leave it (every turn a placement), by
//!   one pass over its slots from its successors' values (values with DTC, or
//!   DTW);
//! - [`in_hand`]: under Lasker's rule (slides while gotis are in hand), every
//!   tier with gotis in hand, alone or with its flipped partner, by the rounds
//!   of [`retrograde`] with exits of any depth (placements);
//!
//! and the kinds derived from the game values:
//!
//! - [`horizon`]: values under the 100-turn rule (DTC₁₀₀, the five classes), by
//!   the same rounds stopped at the turn limit;
//! - [`horizon_shortcut`]: the 100-turn values that follow from the game values,
//!   where nothing a position leads to changes under the rule;
//! - [`dtw`]: depth to win (DTW, the turns to the end of the game) of every
//!   position of a pair, from its values and its capture targets' DTW.
//!
//! Beneath them: [`tables`] (what the solvers exchange: tables read by board,
//! results, errors, progress), [`runs`] (the moves of a run of boards sharing a
//! mover set, listed once: the initial pass, the forward rounds, `verify`) and
//! [`plan`] (the pairs of moving-phase subspaces in dependency order); [`value`]
//! (values, DTC and their 16-bit packing, from `tigadi-values`); [`evaluate`](mod@evaluate)
//! (one position's value from its successors' values, the consistency check that
//! `verify` runs over finished tables).
//!
//! Not here: files (see `tigadi-tablebase`), the order of steps and resuming (see
//! `tigadi-jobs`) or progress bars (see the CLI; the solvers report through
//! [`tables::Observer`]).

pub mod dtw;
pub mod evaluate;
pub mod horizon;
pub mod horizon_shortcut;
pub mod in_hand;
pub mod leaving;
pub mod plan;
pub mod retrograde;
pub mod runs;
pub mod tables;

pub use dtw::{solve_pair_dtw, solve_up_to_dtw};
pub use evaluate::{
    evaluate, evaluate_in_hand, evaluate_with, for_each_turn_in_hand, for_each_turn_target, Best,
    TurnInHand, TurnTarget,
};
pub use horizon::{
    evaluate_horizon, solve_pair_horizon, solve_pair_horizon_from_game,
    solve_step_in_hand_game_and_horizon, solve_step_in_hand_horizon,
    solve_step_in_hand_horizon_from_game, solve_up_to_horizon,
};
pub use horizon_shortcut::{cap_at_limit, capped};
pub use in_hand::{
    exit_tiers, given, part_exits, solve_step_in_hand, solve_step_in_hand_with, step_in_hand_bytes,
    step_tiers, TableSource, TierTable,
};
pub use leaving::{solve_tier, solve_tier_changed, solve_tier_with};
pub use plan::{pairs_for, pairs_up_to, pairs_up_to_pieces, Pair};
pub use retrograde::{solve_pair, solve_pair_with, solve_up_to, Rounds};
pub use tables::{Observer, Quiet, SolveError, SolvedSubspace, SolvedTable, TableSet};
/// Values and their packing, the 100-turn classes and large arrays live one floor
/// down, in `tigadi-values`, so that readers of tables need no solver; re-exported
/// here under their old paths.
pub use tigadi_values::{memory, value, value_at_counter, Category};
pub use value::{Metric, Packed, Value, Wdl, MAX_DTC};
