//! What the solvers exchange: solved tables as they read them ([`SolvedTable`],
//! looked up by board through a [`TableSet`]), what they return
//! ([`SolvedSubspace`]), why they refuse ([`SolveError`]) and how they report
//! progress ([`Observer`]). The lowest module of the crate: the rounds solver
//! ([`crate::retrograde`]), the one-pass solver ([`crate::leaving`]) and the
//! passes derived from them all build on it and on nothing of each other's.

use crate::value::{Packed, Value};
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_rules::Board;

/// Values of an already solved subspace, as the solver reads them: only
/// win/draw/loss matters for capture targets.
#[derive(Clone, Copy)]
pub struct SolvedTable<'a> {
    /// The subspace.
    pub subspace: Subspace,
    /// One value per slot.
    pub values: &'a [Packed],
}

impl<'a> SolvedTable<'a> {
    /// Views of owned tables, one per (subspace, values): of [`crate::solve_up_to`]'s map,
    /// of tables read from files, of [`SolvedSubspace`]s.
    pub fn views<V: AsRef<[Packed]> + 'a>(
        tables: impl IntoIterator<Item = (&'a Subspace, &'a V)>,
    ) -> Vec<SolvedTable<'a>> {
        tables
            .into_iter()
            .map(|(s, v)| SolvedTable {
                subspace: *s,
                values: v.as_ref(),
            })
            .collect()
    }
}

/// Receives progress reports while a pair is solved. Every method has a no-op
/// default.
pub trait Observer: Sync {
    /// A phase begins: `"init"` (work: slots) or `"round k"` (work: slots scanned).
    fn phase(&self, _name: &str, _work: u64) {}
    /// `amount` more units of the current phase are done.
    fn advance(&self, _amount: u64) {}
    /// Round `k` has ended: it ran forwards or backwards and decided `decided`
    /// positions (for measurements; the values never depend on the direction).
    fn round_done(&self, _k: u16, _forward: bool, _decided: u64) {}
    /// The initial pass or round that just ended touched `words` random words of
    /// memory: the capture targets' values the initial pass read, a backward
    /// round's predecessor updates, a forward round's successor reads (for the
    /// model of the solver's memory floor, `benches/benches/updates.rs`).
    fn touched(&self, _words: u64) {}
}

/// An [`Observer`] that ignores everything.
pub struct Quiet;
impl Observer for Quiet {}

/// The solved values of one subspace.
pub struct SolvedSubspace {
    /// The subspace.
    pub subspace: Subspace,
    /// One value per slot of the subspace's index ([`SubspaceIndex::new`]),
    /// [`Packed::NONE`] for padding slots.
    pub values: Vec<Packed>,
    /// Rounds of retrograde analysis the pair needed.
    pub rounds: u32,
}

/// Why a pair could not be solved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SolveError {
    /// A capture target subspace was not supplied.
    MissingTarget(Subspace),
    /// The table of a tier that a step's moves lead to was not supplied.
    MissingTier(tigadi_values::Tier),
    /// A supplied table has the wrong number of slots.
    WrongSize(Subspace),
    /// The values supplied for this subspace, or its capture targets' tables, are
    /// not the game-theoretic values of the rule set (found by the DTW pass,
    /// [`crate::dtw`]).
    Inconsistent(Subspace),
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::MissingTarget(s) => write!(f, "capture target subspace {s} is not solved"),
            SolveError::MissingTier(t) => {
                write!(f, "tier {t}, which the step's moves lead to, is not solved")
            }
            SolveError::WrongSize(s) => write!(f, "table of subspace {s} has the wrong slot count"),
            SolveError::Inconsistent(s) => write!(
                f,
                "the values of subspace {s} or of its capture targets are not the game's values"
            ),
        }
    }
}

impl std::error::Error for SolveError {}

/// The solved tables a step reads (its successors', or its own), looked up by
/// board: each checked for presence and slot count once, when the step starts.
pub struct TableSet<'a> {
    /// Each needed subspace's index and values, in the order asked for.
    pub(crate) tables: Vec<(SubspaceIndex, &'a [Packed])>,
}

impl<'a> TableSet<'a> {
    /// The tables `tables`, each with one value per slot of its subspace's index.
    /// Checks that every subspace of `needed` is there with the right slot count.
    pub fn new(tables: &[SolvedTable<'a>], needed: &[Subspace]) -> Result<Self, SolveError> {
        let mut out = Vec::new();
        for &sub in needed {
            let t = tables
                .iter()
                .find(|t| t.subspace == sub)
                .ok_or(SolveError::MissingTarget(sub))?;
            let idx = SubspaceIndex::new(sub);
            if idx.slots() != t.values.len() as u64 {
                return Err(SolveError::WrongSize(sub));
            }
            out.push((idx, t.values));
        }
        Ok(TableSet { tables: out })
    }

    /// The value of `board` for its player to move; `None` when its subspace is not
    /// among the tables or its slot holds no value.
    #[inline]
    pub fn value(&self, board: Board) -> Option<Value> {
        let sub = Subspace::of(board);
        let (idx, values) = self.tables.iter().find(|(i, _)| i.subspace() == sub)?;
        values[idx.index(board) as usize].get()
    }
}
