//! Subspaces: the goti counts of a moving-phase position.

use tigadi_rules::Board;

/// Fewest gotis a side has in the moving phase (two or fewer is a lost game).
pub const MIN_GOTIS: u8 = 3;
/// Most gotis a side has in the standard game; the index itself allows any counts
/// with `mover + opponent <= 24`.
pub const MAX_GOTIS: u8 = 9;

/// The goti counts of a moving-phase position: `mover` for the player to move,
/// `opponent` for the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Subspace {
    /// Gotis on the board of the player to move.
    pub mover: u8,
    /// Gotis on the board of the other player.
    pub opponent: u8,
}

impl Subspace {
    /// The subspace of `(mover, opponent)` counts.
    pub fn new(mover: u8, opponent: u8) -> Subspace {
        Subspace { mover, opponent }
    }

    /// The subspace a board belongs to.
    pub fn of(board: Board) -> Subspace {
        Subspace::new(
            board.mover.count_ones() as u8,
            board.opponent.count_ones() as u8,
        )
    }

    /// The subspace with the roles swapped: where quiet moves and passes lead.
    pub fn flipped(self) -> Subspace {
        Subspace::new(self.opponent, self.mover)
    }

    /// Where captures from this subspace lead (the opponent, one goti fewer, to
    /// move); `None` when every capture ends the game (the opponent left with
    /// fewer than [`MIN_GOTIS`]).
    pub fn capture_target(self) -> Option<Subspace> {
        (self.opponent > MIN_GOTIS).then(|| Subspace::new(self.opponent - 1, self.mover))
    }

    /// The standard game's subspaces, `MIN_GOTIS..=MAX_GOTIS` per side (49 of them),
    /// mover count major.
    pub fn standard() -> impl Iterator<Item = Subspace> {
        (MIN_GOTIS..=MAX_GOTIS)
            .flat_map(|m| (MIN_GOTIS..=MAX_GOTIS).map(move |o| Subspace::new(m, o)))
    }
}

impl std::fmt::Display for Subspace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}v{}", self.mover, self.opponent)
    }
}
