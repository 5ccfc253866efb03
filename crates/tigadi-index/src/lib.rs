//! Symmetry-reduced perfect-hash index of moving-phase positions.
//!
//! A moving-phase [`Board`] (gotis of the player to move and of the other player)
//! belongs to the [`Subspace`] `(mover, opponent)` of its goti counts. Within a
//! subspace every board gets a dense slot number; the 16 symmetric images of a board
//! share one slot. Some slots hold no canonical board (padding); [`SubspaceIndex::board`]
//! returns `None` for them.
//!
//! Not here: anything about values, solving or files.

use tigadi_rules::Board;

/// Fewest gotis a side has in the moving phase (two or fewer is a lost game).
pub const MIN_GOTIS: u8 = 3;
/// Most gotis a side has in the standard game; the index itself allows up to 12.
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
        Subspace::new(board.mover.count_ones() as u8, board.opponent.count_ones() as u8)
    }

    /// The subspace with the roles swapped: where quiet moves and passes lead.
    pub fn flipped(self) -> Subspace {
        Subspace::new(self.opponent, self.mover)
    }
}

impl std::fmt::Display for Subspace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}v{}", self.mover, self.opponent)
    }
}

/// The canonical representative of a board's symmetry class (the same for all 16
/// images).
pub fn canonical(board: Board) -> Board {
    let _ = board;
    todo!()
}

/// Slot numbering of one subspace.
pub struct SubspaceIndex {
    _private: (),
}

impl SubspaceIndex {
    /// The index of `subspace` (tables are built on first use and shared).
    pub fn new(subspace: Subspace) -> SubspaceIndex {
        let _ = subspace;
        todo!()
    }

    /// Which subspace this indexes.
    pub fn subspace(&self) -> Subspace {
        todo!()
    }

    /// Number of slots (canonical boards plus padding).
    pub fn slots(&self) -> u64 {
        todo!()
    }

    /// The slot of `board`, which must belong to this subspace (debug-asserted).
    /// All symmetric images give the same slot.
    pub fn index(&self, board: Board) -> u64 {
        let _ = board;
        todo!()
    }

    /// The canonical board in `slot`, or `None` for a padding slot.
    pub fn board(&self, slot: u64) -> Option<Board> {
        let _ = slot;
        todo!()
    }
}
