//! What the one solve job ([`crate::solve`]) says as it goes, and why it stops:
//! every event names the [`Tier`] of its step (a hands-empty tier stands for the
//! pair of subspaces solved with it; a report names every tier of its step, see
//! [`step_name`]) and the [`TableKind`] of
//! its pass.

use std::fmt;
use tigadi_rules::RuleSet;
use tigadi_solve::{step_tiers, Observer, Pair, SolveError};
use tigadi_tablebase::{TableKind, TablebaseError};
use tigadi_values::{Hands, Tier};

/// How reports name a step: a hands-empty tier (solved with its flipped
/// subspace) by its pair, `4v3+3v4`; a tier with gotis in hand by itself, `2v3
/// with 1+0 in hand`, or, when it is solved together with its flipped tier
/// (under Lasker's rule, both sides with gotis on the board: [`step_tiers`]),
/// by both, `2v1 with 1+2 in hand and 1v2 with 2+1 in hand`.
pub fn step_name(rules: &RuleSet, tier: Tier) -> String {
    if tier.is_moving() {
        return pair_or_tier(tier);
    }
    let names: Vec<String> = step_tiers(rules, tier)
        .iter()
        .map(Tier::to_string)
        .collect();
    names.join(" and ")
}

/// A hands-empty tier by its pair, any other by itself: how an error names a
/// step (it does not carry the rule set).
fn pair_or_tier(tier: Tier) -> String {
    if tier.is_moving() {
        Pair::of(tier.subspace).to_string()
    } else {
        tier.to_string()
    }
}

/// The game values of a tier with moves inside it, solved by rounds, as reported
/// to [`JobObserver::solved`].
#[derive(Clone, Debug, PartialEq)]
pub struct GameReport {
    /// The step's tier (it and its flipped tier are solved together).
    pub tier: Tier,
    /// Slots of its one or two subspaces (classes plus padding).
    pub slots: u64,
    /// Wall-clock seconds of the solve (not counting the writing).
    pub seconds: f64,
    /// Rounds of retrograde analysis.
    pub rounds: u32,
    /// Classes won for the player to move, over both subspaces.
    pub wins: u64,
    /// Drawn classes.
    pub draws: u64,
    /// Classes lost for the player to move.
    pub losses: u64,
    /// Whether the step's 100-turn values were found in the same pass (the
    /// seconds are then those of both kinds).
    pub with_horizon: bool,
}

/// What a rounds step's pass under the 100-turn rule produced, as reported to
/// [`JobObserver::horizon_solved`]: counts over its classes at counter 0.
#[derive(Clone, Debug, PartialEq)]
pub struct HorizonReport {
    /// The step's tier.
    pub tier: Tier,
    /// Slots of its one or two subspaces.
    pub slots: u64,
    /// Wall-clock seconds of the whole step, writing its tables included.
    pub seconds: f64,
    /// Wall-clock seconds until its values were found (reading the tables
    /// included, writing not: what [`GameReport::seconds`] measures).
    pub found_seconds: f64,
    /// Rounds the horizon pass runs (at most the turn limit, plus the one that
    /// finds nothing).
    pub rounds: u32,
    /// Classes per category, indexed by [`tigadi_solve::Category::code`]: loss, blessed loss,
    /// draw, cursed win, win.
    pub categories: [u64; 5],
    /// Whether they were found with the step's game values, in one pass
    /// (`found_seconds` is then the time of both kinds, also in the game
    /// values' report).
    pub with_game: bool,
}

/// What a rounds step's DTW pass produced, as reported to [`JobObserver::dtw_solved`].
#[derive(Clone, Debug, PartialEq)]
pub struct DtwReport {
    /// The step's tier.
    pub tier: Tier,
    /// Slots of its one or two subspaces.
    pub slots: u64,
    /// Wall-clock seconds of the pass and its writing.
    pub seconds: f64,
    /// Levels settled (distinct depths).
    pub levels: u32,
    /// The longest DTW of a won position of the step (0 if none).
    pub longest_win: u16,
    /// The longest DTW of a lost position of the step (0 if none).
    pub longest_loss: u16,
}

/// A tier whose moves all leave it, solved by one pass over its successors'
/// values and written, as reported to [`JobObserver::tier_solved`].
#[derive(Clone, Debug, PartialEq)]
pub struct TierReport {
    /// The kind of table written.
    pub kind: TableKind,
    /// The tier.
    pub tier: Tier,
    /// Its slots.
    pub slots: u64,
    /// Wall-clock seconds since [`JobObserver::started`], loading its successors'
    /// tables and writing its own included.
    pub seconds: f64,
    /// A horizon table written from its game-theoretic table without the pass:
    /// the rule changes no value its moves lead to.
    pub from_game: bool,
}

/// What a [`crate::solve`] run has to say as it goes. Every method has a no-op
/// default; the solver's own phase reports arrive through [`Observer`]. Methods
/// are called from the thread that runs the job.
pub trait JobObserver: Observer {
    /// Before the first step: how many steps (over every pass) are still to
    /// solve and their slots in all (steps already solved are not counted).
    fn planned(&self, _steps: usize, _slots: u64) {}
    /// Before the first step: about how many bytes of tables the steps still to
    /// solve will write (their slots at the bytes a slot of the tables of each
    /// kind written so far, or of the game values, or a guess where no table
    /// is written yet: [`crate::Plan::bytes_to_write`]), and the
    /// bytes free on the directory's disk (`None` where the system does not
    /// say). By default a [`warning`](Self::warning) where they do not fit.
    fn room(&self, to_write: u64, free: Option<u64>) {
        if let Some(free) = free.filter(|&free| free < to_write) {
            self.warning(&format!(
                "about {:.1} GB of tables are still to be written and their disk has \
                 {:.1} GB free: the run may stop for want of space, and then goes on \
                 from where it stopped once space is freed",
                to_write as f64 / 1e9,
                free as f64 / 1e9
            ));
        }
    }
    /// A pass over the steps begins: the tables of `kind`.
    fn pass_started(&self, _kind: TableKind) {}
    /// A step whose tables of `kind` are present and valid: not solved again.
    fn skipped(&self, _kind: TableKind, _tier: Tier) {}
    /// A step's tables of `kind` are about to be computed (the tables it reads
    /// are loaded first).
    fn started(&self, _kind: TableKind, _tier: Tier, _slots: u64) {}
    /// A rounds step's game-theoretic tables are solved (their writing and
    /// listing in the manifest goes on while the next step is solved).
    fn solved(&self, _report: &GameReport) {}
    /// A rounds step's horizon tables are written.
    fn horizon_solved(&self, _report: &HorizonReport) {}
    /// A rounds step's DTW tables are written.
    fn dtw_solved(&self, _report: &DtwReport) {}
    /// A one-pass step's table is written.
    fn tier_solved(&self, _report: &TierReport) {}
    /// The one-pass steps with hands `hands` that this pass solved are written
    /// and listed in the manifest: `tiers` tables, `slots` slots, `seconds`
    /// since the first of them started.
    fn hands_solved(
        &self,
        _kind: TableKind,
        _hands: Hands,
        _tiers: usize,
        _slots: u64,
        _seconds: f64,
    ) {
    }
    /// Something worth saying that does not stop the run.
    fn warning(&self, _message: &str) {}
    /// Asked before each step: `true` stops the job there, with
    /// [`JobError::Stopped`], once the tables of the steps already solved are
    /// written and listed (a run stopped so loses no step; one killed loses
    /// the step in progress and the one still being written).
    fn stop_requested(&self) -> bool {
        false
    }
}

/// Why a job stopped.
#[derive(Debug)]
pub enum JobError {
    /// Reading, writing or locking files failed.
    Tablebase(TablebaseError),
    /// The solver refused a step.
    Solve(Tier, SolveError),
    /// The observer asked the job to stop ([`JobObserver::stop_requested`])
    /// before this step, the first not solved; every step before it is
    /// written and listed, so running the job again resumes there.
    Stopped(Tier),
}

impl JobError {
    /// Did a write fail for want of room: a full disk or quota, or a file-size
    /// limit? Freeing room and running the job again then goes on from the
    /// first step not written.
    pub fn is_out_of_space(&self) -> bool {
        use std::io::ErrorKind::{FileTooLarge, QuotaExceeded, StorageFull};
        matches!(
            self,
            JobError::Tablebase(TablebaseError::Io { error, .. })
                if matches!(error.kind(), StorageFull | QuotaExceeded | FileTooLarge)
        )
    }
}

impl fmt::Display for JobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JobError::Tablebase(e) => e.fmt(f),
            JobError::Solve(tier, e) => write!(f, "solving {}: {e}", pair_or_tier(*tier)),
            JobError::Stopped(tier) => {
                write!(f, "stopped on request before {}", pair_or_tier(*tier))
            }
        }
    }
}

impl std::error::Error for JobError {}

impl From<TablebaseError> for JobError {
    fn from(e: TablebaseError) -> JobError {
        JobError::Tablebase(e)
    }
}
