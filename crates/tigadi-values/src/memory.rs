//! Large arrays for the solver's random access: backed by transparent huge pages
//! where the system offers them, so that the random reads and writes over gigabytes
//! do not each pay a page-table walk.

use rayon::prelude::*;

/// Bytes each task of [`filled_vec`] fills: one huge page.
const FILL_CHUNK_BYTES: usize = 2 << 20;

/// A vector of `n` copies of `fill`, asking the kernel (Linux) for huge pages before
/// the memory is first touched. Elsewhere, or when the kernel declines, an ordinary
/// vector. The first touch (where the kernel zeroes each fresh page) is shared
/// among the rayon pool's threads, in chunks of a huge page.
pub fn filled_vec<T: Copy + Send + Sync>(n: usize, fill: T) -> Vec<T> {
    vec_from_fn(n, |_| fill)
}

/// The vector `[f(0), f(1), …, f(n - 1)]`, in huge pages as [`filled_vec`]'s,
/// each element written once, in parallel.
pub fn vec_from_fn<T: Send>(n: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let mut v: Vec<T> = Vec::with_capacity(n);
    advise_huge_pages(v.as_mut_ptr() as *mut u8, n * std::mem::size_of::<T>());
    let per_chunk = (FILL_CHUNK_BYTES / std::mem::size_of::<T>().max(1)).max(1);
    v.spare_capacity_mut()[..n]
        .par_chunks_mut(per_chunk)
        .enumerate()
        .for_each(|(c, chunk)| {
            for (i, x) in chunk.iter_mut().enumerate() {
                x.write(f(c * per_chunk + i));
            }
        });
    // SAFETY: the loop above initialised each of the first `n` elements, and the
    // capacity is at least `n`.
    unsafe { v.set_len(n) };
    v
}

#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *mut u8, len: usize) {
    const HUGE: usize = 2 << 20;
    let start = (ptr as usize).div_ceil(HUGE) * HUGE;
    let end = (ptr as usize + len) / HUGE * HUGE;
    if end > start {
        // SAFETY: the range lies inside an allocation we own; madvise with
        // MADV_HUGEPAGE only changes how the kernel backs it, never its contents.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *mut u8, _len: usize) {}

/// Asks the CPU to bring the cache line of `x` in, ahead of a read or write.
#[inline(always)]
pub fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint; any address is allowed.
    unsafe {
        std::arch::x86_64::_mm_prefetch(x as *const T as *const i8, std::arch::x86_64::_MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// Asks the CPU to bring the cache line of `x` in ready to be written
/// (`PREFETCHW`: owned, so that a later store to it need not wait for the
/// line), ahead of a store to a random place. A no-op where the instruction
/// is missing (it decodes as one on x86-64 processors without it).
#[inline(always)]
pub fn prefetch_write<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint: it reads nothing, writes nothing and
    // faults on no address.
    unsafe {
        std::arch::asm!(
            "prefetchw [{p}]",
            p = in(reg) x as *const T,
            options(nostack, preserves_flags, readonly),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// Asks the CPU to bring in the cache lines of `items`: one [`prefetch`] every
/// 64 bytes (a cache line) from its first element.
#[inline]
pub fn prefetch_slice<T>(items: &[T]) {
    /// Bytes in one cache line of the x86-64 CPUs this runs on.
    const LINE: usize = 64;
    for x in items
        .iter()
        .step_by((LINE / std::mem::size_of::<T>()).max(1))
    {
        prefetch(x);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filled_vec_holds_n_copies_across_chunk_edges() {
        let per16 = FILL_CHUNK_BYTES / 2;
        for n in [0, 1, 7, per16 - 1, per16, per16 + 1, 3 * per16 + 5] {
            let v = filled_vec(n, 0xBEEFu16);
            assert_eq!(v.len(), n);
            assert!(v.iter().all(|&x| x == 0xBEEF), "n = {n}");
        }
        let per64 = FILL_CHUNK_BYTES / 8;
        let v = filled_vec(2 * per64 + 3, u64::MAX - 1);
        assert_eq!(v.len(), 2 * per64 + 3);
        assert!(v.iter().all(|&x| x == u64::MAX - 1));
    }
}
