//! Canonical forms and the slot numbering of one subspace.

use tigadi_rules::geometry::{transform_pair, Bits, POINTS, SYMMETRIES};
use tigadi_rules::Board;

use crate::images::Images;
use crate::mover::MoverTable;
use crate::subspace::Subspace;
use crate::tables::{
    binomial, colex_rank, compress, expand, next_same_size, transform_set, unrank_free,
};

/// The canonical form of `board` as `(orbit rank of its mover set, canonical board)`.
#[inline(always)]
fn canonicalise(table: &MoverTable, board: Board) -> (u32, Board) {
    let (mover, orbit, syms) = table.classify(board.mover);
    (
        orbit,
        Board {
            mover,
            opponent: opponent_image(syms, board.opponent),
        },
    )
}

/// The opponent set of the canonical board, given the symmetries `syms` that map the
/// mover set to its canonical set.
#[inline(always)]
fn opponent_image(syms: u32, opponent: Bits) -> Bits {
    let image = transform_set(syms.trailing_zeros() as usize, opponent);
    let others = syms & (syms - 1);
    if others != 0 {
        // The mover set has a nontrivial stabiliser: the least opponent image among
        // the symmetries that give the least mover set.
        least_image(others as u16, opponent).min(image)
    } else {
        image
    }
}

/// The part of a slot that depends on the mover's set alone: where several boards
/// share one mover set (all the quiet successors of a position do), computing it
/// once and using [`SubspaceIndex::index_with`] saves about half the work.
///
/// Made by [`SubspaceIndex::mover_class`]; valid only with the index that made it
/// (the first slot of a run depends on the opponent count).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoverClass {
    /// The canonical mover set.
    canonical: Bits,
    /// The symmetries mapping the mover set onto `canonical` (bit `s` for `s`).
    syms: u32,
    /// The first slot of the canonical set's run.
    first_slot: u64,
}

impl MoverClass {
    /// Does a symmetry other than the identity map the mover set onto itself? Only
    /// then can two boards with this mover set and different opponent sets be in one
    /// symmetry class.
    #[inline]
    pub fn is_symmetric(&self) -> bool {
        self.syms & (self.syms - 1) != 0
    }

    /// The first slot of the run, when the mover set is its own canonical set and
    /// no other symmetry maps it onto itself: then the board with opponent set `S`
    /// is in slot `start + FreeSets::new(mover).number(compress(S))`
    /// ([`FreeSets`](crate::FreeSets)), so the whole run lies in that order in
    /// `start..start + run_length()`. `None` otherwise.
    #[inline]
    pub fn identity_run(&self) -> Option<u64> {
        (self.syms == 1).then_some(self.first_slot)
    }

    /// The first slot of the canonical set's run (of
    /// [`SubspaceIndex::run_length`] slots), whatever its symmetries.
    #[inline]
    pub fn first_slot(&self) -> u64 {
        self.first_slot
    }

    /// For boards with this mover set whose opponent sets differ from `opponent`
    /// in a few points (the quiet successors of one position: the slides of one
    /// set), their slots by toggling points of a precomputed form
    /// ([`Near::toggled`]). `None` when the mover set is
    /// [symmetric](Self::is_symmetric).
    ///
    /// The slot of `(mover, S)` is the run's first slot plus the colex rank of
    /// `s(S)` compressed onto the points the canonical mover set leaves free, `s`
    /// the symmetry mapping `mover` onto it; compression keeps or drops each point
    /// by itself, so toggling a point of `S` toggles one bit of the compressed
    /// image.
    #[inline]
    pub fn near(&self, opponent: Bits) -> Option<Near> {
        if self.is_symmetric() {
            return None;
        }
        let sym = self.syms.trailing_zeros() as usize;
        Some(Near {
            first_slot: self.first_slot,
            sym,
            free: !self.canonical,
            base: compress(self.canonical, transform_set(sym, opponent)),
        })
    }

    /// The opponent set of the canonical board of any board with this mover set and
    /// opponent set `opponent`: two such boards are in the same symmetry class (and
    /// slot) exactly when their keys are equal. Cheaper than
    /// [`SubspaceIndex::index_with`] where only class equality matters, such as
    /// counting distinct classes among boards that share a mover set; for a mover
    /// set that is not [symmetric](Self::is_symmetric), the opponent sets themselves
    /// already tell the classes apart.
    #[inline]
    pub fn opponent_key(&self, opponent: Bits) -> Bits {
        opponent_image(self.syms, opponent)
    }
}

/// The slots of boards that share a mover set without symmetries and whose
/// opponent sets differ from one set `S` in a few points: made by
/// [`MoverClass::near`].
#[derive(Clone, Copy, Debug)]
pub struct Near {
    first_slot: u64,
    /// The symmetry mapping the mover set onto its canonical set.
    sym: usize,
    /// The points the canonical mover set leaves free.
    free: Bits,
    /// The image of `S` under `sym`, compressed onto `free`.
    base: Bits,
}

impl Near {
    /// The slot of the board with opponent set `S` itself.
    #[inline(always)]
    pub fn slot(&self) -> u64 {
        self.first_slot + colex_rank(self.base) as u64
    }

    /// The slot of the board with opponent set `S` with points `a` and `b` toggled
    /// (`S - {a} + {b}` or the other way round; neither may be in the mover set).
    #[inline(always)]
    pub fn toggled(&self, a: usize, b: usize) -> u64 {
        let bit = |p: usize| {
            let image = Images::point(p).image(self.sym);
            1 << (self.free & (image - 1)).count_ones()
        };
        self.first_slot + colex_rank(self.base ^ bit(a) ^ bit(b)) as u64
    }
}

/// The least image of `set` under the symmetries in `syms` (bit `s` for symmetry
/// `s`; the identity only when bit 0 is set).
#[inline]
fn least_image(syms: u16, set: Bits) -> Bits {
    let mut least = Bits::MAX;
    let mut rest = syms;
    while rest != 0 {
        let s = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        least = least.min(transform_set(s, set));
    }
    least
}

/// The canonical representative of a board's symmetry class (the same for all 16
/// images): among the images, the one with the least mover set, and among those the
/// least opponent set (sets compared as `u32`).
pub fn canonical(board: Board) -> Board {
    canonicalise(MoverTable::of(board.mover.count_ones()), board).1
}

/// Number of distinct boards among the 16 symmetric images of `board` (1 to 16; a
/// divisor of 16).
pub fn orbit_size(board: Board) -> u32 {
    let pair = board.mover as u64 | (board.opponent as u64) << 32;
    let fixed = (0..SYMMETRIES)
        .filter(|&s| transform_pair(s, pair) == pair)
        .count() as u32;
    SYMMETRIES as u32 / fixed
}

/// Slot numbering of one subspace: a perfect hash from symmetry classes of boards
/// onto `0..slots()`, with a few padding slots that hold no class.
///
/// Slots are ordered by canonical mover set, so the boards sharing one mover set
/// (up to symmetry) occupy one contiguous run of `C(24 - mover, opponent)` slots.
/// Cheap to create (the tables are built once per goti count and shared) and
/// `Send + Sync`.
#[derive(Clone, Copy)]
pub struct SubspaceIndex {
    subspace: Subspace,
    table: &'static MoverTable,
    /// Opponent sets per mover set: `C(24 - mover, opponent)`.
    run: u32,
    slots: u64,
}

impl std::fmt::Debug for SubspaceIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SubspaceIndex")
            .field("subspace", &self.subspace)
            .field("slots", &self.slots)
            .finish()
    }
}

impl SubspaceIndex {
    /// The index of `subspace` (tables are built on first use and shared).
    ///
    /// # Panics
    /// When `subspace.mover + subspace.opponent > 24`.
    pub fn new(subspace: Subspace) -> SubspaceIndex {
        let (m, o) = (subspace.mover as u32, subspace.opponent as u32);
        assert!(
            m + o <= POINTS as u32,
            "subspace {subspace} has more gotis than the board has points"
        );
        let table = MoverTable::of(m);
        let run = binomial(POINTS as u32 - m, o);
        SubspaceIndex {
            subspace,
            table,
            run,
            slots: table.orbits.len() as u64 * run as u64,
        }
    }

    /// Which subspace this indexes.
    pub fn subspace(&self) -> Subspace {
        self.subspace
    }

    /// Number of slots (symmetry classes plus padding); slots are `0..slots()`.
    pub fn slots(&self) -> u64 {
        self.slots
    }

    /// Number of symmetry classes of the opponent's point set: the groups that
    /// [`for_each_board_by_opponent`](Self::for_each_board_by_opponent) visits.
    pub fn opponent_orbits(&self) -> u64 {
        MoverTable::of(self.subspace.opponent as u32).orbits.len() as u64
    }

    /// The groups of [`for_each_board_by_opponent`](Self::for_each_board_by_opponent)
    /// (`0..opponent_orbits()`) in ranges of whole groups of about `slots`
    /// boards each (one group at least): the tasks of a parallel pass by the
    /// opponent's set.
    pub fn opponent_tasks(&self, slots: u64) -> Vec<std::ops::Range<u64>> {
        let per_group = (binomial(
            POINTS as u32 - self.subspace.opponent as u32,
            self.subspace.mover as u32,
        ) as u64)
            .max(1);
        let per_task = (slots / per_group).max(1);
        let groups = self.opponent_orbits();
        (0..groups.div_ceil(per_task))
            .map(|t| t * per_task..((t + 1) * per_task).min(groups))
            .collect()
    }

    /// Calls `f(slot, board, number)` for the positions of this subspace grouped by
    /// the opponent's point set: for each canonical opponent set `O` (least of its
    /// orbit) with orbit rank in `orbits` (`0..opponent_orbits()` in all), every
    /// board `(M, O)` of one symmetry class per slot, mover sets `M` in the order of
    /// their `number` among the sets of `m` points that `O` leaves free
    /// ([`FreeSets`](crate::FreeSets)). Over all orbits every slot holding a
    /// position is visited exactly once (padding never); `board` is one of the
    /// slot's class, not necessarily its canonical board.
    ///
    /// For passes whose look-ups depend on the opponent set: every quiet successor
    /// or predecessor of `(M, O)` has the mover set `O`, so within one group they
    /// all fall into one run of the other table (see [`mover_class`](Self::mover_class)),
    /// which stays in cache, where slot order scatters them over the whole table;
    /// and what a pass computes per mover set of the group can sit in an array by
    /// `number`, read in order.
    pub fn for_each_board_by_opponent(
        &self,
        orbits: std::ops::Range<u64>,
        mut f: impl FnMut(u64, Board, u32),
    ) {
        let table = MoverTable::of(self.subspace.opponent as u32);
        let m = self.subspace.mover as u32;
        for r in orbits {
            let orbit = table.orbits[r as usize];
            let opponent = orbit.set;
            let n = POINTS as u32 - opponent.count_ones();
            if m > n {
                continue;
            }
            // The images of `O`, once per group: a board's slot takes `O` under
            // the symmetries that make its mover set canonical.
            let images = Images::of(opponent);
            // The m-sets of the free points in compressed form, in increasing order,
            // which is the order of their numbers (colex).
            let end = 1u64 << n;
            let mut compressed: u64 = (1 << m) - 1;
            let mut number = 0u32;
            while compressed < end {
                let mover = expand(opponent, compressed as Bits);
                // Boards (M, O) and (g M, O) with g fixing O are one class: keep the
                // least M of those.
                let mut rest = orbit.stabiliser;
                let mut least = true;
                while rest != 0 && least {
                    let g = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    least = transform_set(g, mover) >= mover;
                }
                if least {
                    let board = Board { mover, opponent };
                    let slot = self.index_with_images(self.mover_class(mover), &images);
                    debug_assert_eq!(slot, self.index(board));
                    f(slot, board, number);
                }
                if m == 0 {
                    break;
                }
                number += 1;
                compressed = next_same_size(compressed);
            }
        }
    }

    /// Number of symmetry classes of the mover's point set: the runs of slots that
    /// share one canonical mover set.
    pub fn mover_classes(&self) -> u64 {
        self.table.orbits.len() as u64
    }

    /// The canonical mover set of run `run` (`0..mover_classes()`, slots `run *
    /// run_length()..`), and whether a symmetry other than the identity maps it
    /// onto itself (only then does the run hold padding). The run's slot
    /// `run * run_length() + X` holds the opponent set numbered `X` by
    /// [`FreeSets::new(mover)`](crate::FreeSets).
    ///
    /// # Panics
    /// When `run >= mover_classes()`.
    #[inline]
    pub fn run_mover(&self, run: u64) -> (Bits, bool) {
        let orbit = self.table.orbits[run as usize];
        (orbit.set, orbit.stabiliser != 0)
    }

    /// Number of slots in one run of a canonical mover set: `C(24 - mover, opponent)`.
    pub fn run_length(&self) -> u64 {
        self.run as u64
    }

    /// The slot of `board`, which must belong to this subspace (debug-asserted).
    /// All symmetric images give the same slot.
    #[inline]
    pub fn index(&self, board: Board) -> u64 {
        debug_assert_eq!(
            Subspace::of(board),
            self.subspace,
            "board not in this subspace"
        );
        debug_assert_eq!(board.mover & board.opponent, 0, "overlapping gotis");
        self.index_with(self.mover_class(board.mover), board.opponent)
    }

    /// The mover-set part of the slot of any board of this subspace whose mover set
    /// is `mover`.
    #[inline]
    pub fn mover_class(&self, mover: Bits) -> MoverClass {
        debug_assert_eq!(
            mover.count_ones(),
            self.subspace.mover as u32,
            "wrong goti count"
        );
        let (canonical, orbit, syms) = self.table.classify(mover);
        MoverClass {
            canonical,
            syms,
            first_slot: orbit as u64 * self.run as u64,
        }
    }

    /// [`mover_class`](Self::mover_class) of the set whose images are `mover`: the
    /// least image and its symmetries come from the images side by side
    /// ([`Images::least`]) instead of the ring-by-ring tables.
    #[inline(always)]
    pub fn mover_class_of(&self, mover: &Images) -> MoverClass {
        let (canonical, syms) = mover.least();
        debug_assert_eq!(
            canonical.count_ones(),
            self.subspace.mover as u32,
            "wrong goti count"
        );
        MoverClass {
            canonical,
            syms,
            first_slot: self.table.orbit_rank(canonical) as u64 * self.run as u64,
        }
    }

    /// [`index_with`](Self::index_with) of the opponent set whose images are
    /// `opponent`: its canonical image is looked up, not computed.
    #[inline(always)]
    pub fn index_with_images(&self, class: MoverClass, opponent: &Images) -> u64 {
        let image = opponent.least_of(class.syms);
        class.first_slot + colex_rank(compress(class.canonical, image)) as u64
    }

    /// The slot of the board whose mover set `class` was made from (by this index)
    /// and whose opponent set is `opponent`: the same as [`index`](Self::index).
    #[inline]
    pub fn index_with(&self, class: MoverClass, opponent: Bits) -> u64 {
        debug_assert_eq!(
            opponent.count_ones(),
            self.subspace.opponent as u32,
            "wrong goti count"
        );
        let image = opponent_image(class.syms, opponent);
        class.first_slot + colex_rank(compress(class.canonical, image)) as u64
    }

    /// The canonical board in `slot`, or `None` for a padding slot.
    ///
    /// # Panics
    /// When `slot >= slots()`.
    #[inline]
    pub fn board(&self, slot: u64) -> Option<Board> {
        assert!(
            slot < self.slots,
            "slot {slot} out of range 0..{}",
            self.slots
        );
        let (orbit, rank) = if self.slots <= u32::MAX as u64 {
            let s = slot as u32;
            (s / self.run, s % self.run)
        } else {
            (
                (slot / self.run as u64) as u32,
                (slot % self.run as u64) as u32,
            )
        };
        let entry = self.table.orbits[orbit as usize];
        let opponent = unrank_free(entry.set, self.subspace.opponent as u32, rank);
        if entry.stabiliser != 0 && least_image(entry.stabiliser, opponent) < opponent {
            return None;
        }
        Some(Board {
            mover: entry.set,
            opponent,
        })
    }
}

impl SubspaceIndex {
    /// The classes in the slots `range` (clamped to `0..slots()`), in slot order, as
    /// `(slot, canonical board)`; padding slots are skipped. The same boards as
    /// [`board`](Self::board) gives, at a fraction of the cost per slot: the way to
    /// sweep a subspace (split the slots into ranges to sweep in parallel).
    pub fn boards(&self, range: std::ops::Range<u64>) -> Boards {
        let end = range.end.min(self.slots);
        let start = range.start.min(end);
        let mut boards = Boards {
            table: self.table,
            opponent: self.subspace.opponent as u32,
            free_points: POINTS as u32 - self.subspace.mover as u32,
            slot: start,
            end,
            orbit: 0,
            mover: 0,
            stabiliser: 0,
            packed: 0,
        };
        if start < end {
            let orbit = (start / self.run as u64) as u32;
            let rank = (start % self.run as u64) as u32;
            boards.enter_orbit(orbit);
            let opponent = unrank_free(boards.mover, boards.opponent, rank);
            boards.packed = compress(boards.mover, opponent);
        }
        boards
    }
}

/// Iterator over the classes of a range of slots: see [`SubspaceIndex::boards`].
#[derive(Clone)]
pub struct Boards {
    table: &'static MoverTable,
    opponent: u32,
    free_points: u32,
    /// The slot of the board `packed` describes.
    slot: u64,
    end: u64,
    orbit: u32,
    mover: Bits,
    stabiliser: u16,
    /// The opponent set compressed onto the free points (its colex rank is the
    /// position in the run).
    packed: Bits,
}

impl std::fmt::Debug for Boards {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Boards")
            .field("slot", &self.slot)
            .field("end", &self.end)
            .finish()
    }
}

impl Boards {
    fn enter_orbit(&mut self, orbit: u32) {
        let entry = self.table.orbits[orbit as usize];
        self.orbit = orbit;
        self.mover = entry.set;
        self.stabiliser = entry.stabiliser;
    }

    /// Moves `packed` to the next opponent set in colex order, into the next run when
    /// this one is done.
    #[inline]
    fn advance(&mut self) {
        self.slot += 1;
        let set = self.packed;
        let next = if set == 0 {
            // No opponent gotis: every run has one slot.
            1 << self.free_points
        } else {
            next_same_size(set as u64) as Bits
        };
        if next >> self.free_points != 0 {
            if self.slot < self.end {
                self.enter_orbit(self.orbit + 1);
            }
            self.packed = (1 << self.opponent) - 1;
        } else {
            self.packed = next;
        }
    }
}

impl Iterator for Boards {
    type Item = (u64, Board);

    #[inline]
    fn next(&mut self) -> Option<(u64, Board)> {
        while self.slot < self.end {
            let slot = self.slot;
            let opponent = expand(self.mover, self.packed);
            let canonical =
                self.stabiliser == 0 || least_image(self.stabiliser, opponent) >= opponent;
            let mover = self.mover;
            self.advance();
            if canonical {
                return Some((slot, Board { mover, opponent }));
            }
        }
        None
    }
}
